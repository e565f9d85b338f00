// Every SQL statement of the funnel. Each runs inside withScope (tenant and representative
// set, row-level security in force). nome_prospect, empresa_prospect, observacoes and
// motivo_perda hold escaped text (shared/src/text.ts). atualizado_em is written at
// millisecond precision, so the value a client echoes back as baseAtualizadoEm compares equal.
import { blankDocument } from '@campo/shared';
import { type Insertable, sql } from 'kysely';
import { clientNameSql } from '../db/client-name.ts';
import type { Tx } from '../db/scope.ts';
import type { AppOportunidades } from '../db/types.ts';

export const columns = [
  'o.id',
  'o.estagio',
  'o.id_cliente',
  clientNameSql('c').as('nome_cliente'),
  'o.nome_prospect',
  'o.empresa_prospect',
  'o.id_pedido',
  'o.valor',
  sql<string | null>`to_char(o.previsao_fechamento, 'YYYY-MM-DD')`.as('previsao_fechamento'),
  'o.observacoes',
  'o.motivo_perda',
  'o.criado_em',
  'o.atualizado_em',
] as const;

function base(tx: Tx, idEmpresa: number, codVendedor: number) {
  return tx
    .selectFrom('app.oportunidades as o')
    .leftJoin('app.vw_clientes as c', (j) =>
      j.onRef('c.id_cliente', '=', 'o.id_cliente').onRef('c.id_empresa', '=', 'o.id_empresa'),
    )
    .where('o.id_empresa', '=', idEmpresa)
    .where('o.cod_vendedor', '=', codVendedor);
}

export function selectOpportunities(tx: Tx, idEmpresa: number, codVendedor: number, estagios?: string[]) {
  let q = base(tx, idEmpresa, codVendedor).select(columns);
  if (estagios?.length) q = q.where('o.estagio', 'in', estagios);
  return q.orderBy('o.atualizado_em', 'desc').orderBy('o.id').execute();
}

export function selectOpportunity(tx: Tx, idEmpresa: number, codVendedor: number, id: string) {
  return base(tx, idEmpresa, codVendedor).select(columns).where('o.id', '=', id).executeTakeFirst();
}
export type OpportunityRow = NonNullable<Awaited<ReturnType<typeof selectOpportunity>>>;

/** Any opportunity with this id in the tenant (ids are global), locked: who owns it. */
export function selectOwner(tx: Tx, idEmpresa: number, id: string) {
  return tx
    .selectFrom('app.oportunidades')
    .select(['cod_vendedor', 'atualizado_em'])
    .where('id_empresa', '=', idEmpresa)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * The card's last state when the change log holds its tombstone (it existed and was deleted), else null. A card
 * id is a UUID made by the device, so a later push under it is the same card, never a new one.
 */
export async function deletedCard(tx: Tx, idEmpresa: number, id: string): Promise<Record<string, unknown> | null> {
  const row = await tx
    .selectFrom('app.sync_alteracoes')
    .select('dados')
    .where('id_empresa', '=', idEmpresa)
    .where('colecao', '=', 'funil')
    .where('chave', '=', id)
    .where('excluido', '=', true)
    .executeTakeFirst();
  if (!row) return null;
  return row.dados === null ? { ...blankDocument('funil', id) } : (JSON.parse(row.dados) as Record<string, unknown>);
}

export function selectPortfolioClient(tx: Tx, idEmpresa: number, codVendedor: number, idCliente: number) {
  return tx
    .selectFrom('app.vw_clientes')
    .select('id_cliente')
    .where('id_empresa', '=', idEmpresa)
    .where('cod_vendedor', '=', codVendedor)
    .where('id_cliente', '=', idCliente)
    .executeTakeFirst();
}

export function selectOwnOrder(tx: Tx, idEmpresa: number, codVendedor: number, id: number) {
  return tx
    .selectFrom('app.pedidos')
    .select('id')
    .where('id_empresa', '=', idEmpresa)
    .where('cod_vendedor', '=', codVendedor)
    .where('id', '=', id)
    .executeTakeFirst();
}

type Values = Omit<
  Insertable<AppOportunidades>,
  'id' | 'id_empresa' | 'cod_vendedor' | 'criado_em' | 'atualizado_em' | 'estagio'
> & {
  estagio: string;
};

const nowMs = sql<Date>`date_trunc('milliseconds', now())`;

/** The device's own clock for a write it made offline and the server took as sent (funnel/sync.ts). */
export interface Stamps {
  criadoEm?: Date;
  atualizadoEm?: Date;
}

/** Inserts unless the id exists (any tenant or rep: the primary key is global); true when inserted. */
export async function insertOpportunity(
  tx: Tx,
  row: Values & { id: string; id_empresa: number; cod_vendedor: number },
  at: Stamps = {},
): Promise<boolean> {
  const result = await tx
    .insertInto('app.oportunidades')
    .values({ ...row, criado_em: at.criadoEm ?? nowMs, atualizado_em: at.atualizadoEm ?? nowMs })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return result !== undefined;
}

export async function updateOpportunity(
  tx: Tx,
  idEmpresa: number,
  codVendedor: number,
  id: string,
  set: Partial<Values>,
  at: Stamps = {},
): Promise<void> {
  await tx
    .updateTable('app.oportunidades')
    .set({ ...set, atualizado_em: at.atualizadoEm ?? nowMs })
    .where('id_empresa', '=', idEmpresa)
    .where('cod_vendedor', '=', codVendedor)
    .where('id', '=', id)
    .execute();
}

export async function deleteOpportunity(tx: Tx, idEmpresa: number, codVendedor: number, id: string): Promise<number> {
  const result = await tx
    .deleteFrom('app.oportunidades')
    .where('id_empresa', '=', idEmpresa)
    .where('cod_vendedor', '=', codVendedor)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Opportunities of the tenant, every representative's (the replication refresh), or these ids. */
export function selectTenantOpportunities(tx: Tx, idEmpresa: number, ids: readonly string[] | null) {
  let q = tx
    .selectFrom('app.oportunidades as o')
    .leftJoin('app.vw_clientes as c', (j) =>
      j.onRef('c.id_cliente', '=', 'o.id_cliente').onRef('c.id_empresa', '=', 'o.id_empresa'),
    )
    .select([...columns, 'o.cod_vendedor'])
    .where('o.id_empresa', '=', idEmpresa);
  if (ids !== null) q = q.where(sql`o.id::text`, 'in', ids.length > 0 ? [...ids] : ['']);
  return q.orderBy('o.id').execute();
}
