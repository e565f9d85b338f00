// What a device pushed and the server could not take (app.sync_recusas, docs/sync.md
// "Refusals"): a reply that reached a ticket closed meanwhile, a card edit that broke a rule.
// It is kept until the representative fixes or discards it, and the domain's loader puts it
// back into the document every pull answers, so a later change of the ticket or card can never
// erase what the representative typed.
import type { SyncServedCollection } from '@campo/shared';
import type { Tx } from '../db/scope.ts';
import { storedJson } from './changelog.ts';

export interface Refusal {
  chave: string;
  item: string;
  dados: unknown;
}

export async function keepRefusal(
  tx: Tx,
  idEmpresa: number,
  colecao: SyncServedCollection,
  codVendedor: number,
  refusal: Refusal,
): Promise<void> {
  await tx
    .insertInto('app.sync_recusas')
    .values({
      id_empresa: idEmpresa,
      colecao,
      chave: refusal.chave,
      item: refusal.item,
      cod_vendedor: codVendedor,
      dados: storedJson(refusal.dados),
    })
    .onConflict((oc) =>
      oc.columns(['id_empresa', 'colecao', 'chave', 'item']).doUpdateSet({ dados: (eb) => eb.ref('excluded.dados') }),
    )
    .execute();
}

/** The refusals of the keys (all the collection's when null), by key. */
export async function refusalsOf(
  tx: Tx,
  idEmpresa: number,
  colecao: SyncServedCollection,
  chaves: string[] | null,
): Promise<Map<string, Refusal[]>> {
  if (chaves !== null && chaves.length === 0) return new Map();
  let query = tx
    .selectFrom('app.sync_recusas')
    .select(['chave', 'item', 'dados'])
    .where('id_empresa', '=', idEmpresa)
    .where('colecao', '=', colecao);
  if (chaves !== null) query = query.where('chave', 'in', chaves);
  const rows = await query.orderBy('criado_em').orderBy('item').execute();
  const byKey = new Map<string, Refusal[]>();
  for (const r of rows) {
    const list = byKey.get(r.chave) ?? [];
    list.push({ chave: r.chave, item: r.item, dados: JSON.parse(r.dados) });
    byKey.set(r.chave, list);
  }
  return byKey;
}

/** Drops refusals the representative discarded or fixed; how many went. */
export async function dropRefusals(
  tx: Tx,
  idEmpresa: number,
  colecao: SyncServedCollection,
  chave: string,
  items: string[],
): Promise<number> {
  if (items.length === 0) return 0;
  const r = await tx
    .deleteFrom('app.sync_recusas')
    .where('id_empresa', '=', idEmpresa)
    .where('colecao', '=', colecao)
    .where('chave', '=', chave)
    .where('item', 'in', items)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
