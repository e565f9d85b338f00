// The replicated commercial policy: the rules that reach a representative (collection regras)
// and their ceilings (document 'tetos@<cod>' of collection ajustes). Both are small, so their
// change log is refreshed whole whenever a manager writes them (policies and company
// services), and on the schedule, which is what lets an expired rule leave the devices.
import { ruleDocument } from '@campo/shared';
import { sql } from 'kysely';
import type { SyncDoc } from '../changelog/collection.ts';
import type { Tx } from '../db/scope.ts';

/** Rules in force today (São Paulo) or later; a key of another rule is not built, hence a tombstone. */
export async function loadRuleDocs(tx: Tx, idEmpresa: number, chaves: string[] | null): Promise<SyncDoc[]> {
  let q = tx
    .selectFrom('app.regras_desconto')
    .select([
      'id',
      'descricao',
      'grupo',
      'subgrupo',
      'representante',
      'id_pauta',
      'percent',
      sql<string>`to_char(vigencia_inicio, 'YYYY-MM-DD')`.as('vigencia_inicio'),
      sql<string | null>`to_char(vigencia_fim, 'YYYY-MM-DD')`.as('vigencia_fim'),
      'promocao',
    ])
    .where('id_empresa', '=', idEmpresa)
    .where((eb) => eb.or([eb('vigencia_fim', 'is', null), eb('vigencia_fim', '>=', sql<string>`current_date`)]));
  if (chaves !== null) q = q.where('id', 'in', chaves.length > 0 ? chaves.map((k) => Number(k.split('@')[0])) : [0]);
  const rows = await q.orderBy('id').execute();
  return rows.map((r) => {
    const doc = ruleDocument(r);
    // The key carries the representative, as a client's does: a rule moved to another one is a
    // tombstone for the first and a new document for the second.
    return { chave: `${doc.id}@${r.representante ?? '*'}`, escopo: r.representante, documento: doc.id, doc };
  });
}

/** Every representative's ceilings, as the discount engine takes them (loadCeilingInputs). */
export async function loadCeilingDocs(tx: Tx, idEmpresa: number): Promise<SyncDoc[]> {
  const reps = await tx
    .selectFrom('app.vw_vendedores')
    .select('cod_vendedor')
    .where('id_empresa', '=', idEmpresa)
    .execute();
  const limits = await tx
    .selectFrom('app.vw_vendedor_limites')
    .select(['cod_vendedor', 'categoria', 'perc_desc_max'])
    .where('id_empresa', '=', idEmpresa)
    .orderBy('cod_vendedor')
    .orderBy('categoria')
    .execute();
  const byRep = new Map<number, { defaultPercent: number | null; byCategory: Record<string, number> }>();
  for (const r of reps)
    if (r.cod_vendedor !== null) byRep.set(r.cod_vendedor, { defaultPercent: null, byCategory: {} });
  for (const l of limits) {
    if (l.cod_vendedor === null || l.perc_desc_max === null) continue;
    const entry = byRep.get(l.cod_vendedor) ?? { defaultPercent: null, byCategory: {} };
    if (l.categoria === null) entry.defaultPercent = l.perc_desc_max;
    else entry.byCategory[l.categoria] = l.perc_desc_max;
    byRep.set(l.cod_vendedor, entry);
  }
  return [...byRep.entries()].map(([codVendedor, tetos]) => ({
    chave: `tetos@${codVendedor}`,
    escopo: codVendedor,
    documento: 'tetos',
    doc: { id: 'tetos', empresa: null, tetos: { codVendedor, ...tetos }, _deleted: false },
  }));
}
