// Every SQL statement of the tickets (SAC) domain. Each runs inside withScope: the tenant is
// set and row-level security binds a representative to their own tickets even if a filter
// here were forgotten. assunto and texto hold escaped text (shared/src/text.ts).
import type { TicketStatus } from '@campo/shared';
import { sql } from 'kysely';
import { clientNameSql } from '../db/client-name.ts';
import type { Tx } from '../db/scope.ts';

/** A Campo order, to open a ticket about it. */
export function selectCampoOrder(tx: Tx, idEmpresa: number, id: number) {
  return tx
    .selectFrom('app.pedidos')
    .select(['id', 'cod_vendedor', 'num_ped_sar', 'id_cliente', 'nome_cliente'])
    .where('id_empresa', '=', idEmpresa)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A historical ERP order of the representative, by its ERP number, with the client's name. */
export function selectErpOrder(tx: Tx, idEmpresa: number, codVendedor: number, numPedido: number) {
  return tx
    .selectFrom('app.vw_sitpedido as s')
    .leftJoin('app.vw_clientes as c', (j) =>
      j.onRef('c.id_cliente', '=', 's.id_corrent').onRef('c.id_empresa', '=', 's.id_empresa'),
    )
    .select(['s.num_pedido', 's.id_corrent', clientNameSql('c').as('nome_cliente')])
    .where('s.id_empresa', '=', idEmpresa)
    .where('s.cod_vendedor', '=', codVendedor)
    .where('s.num_pedido', '=', numPedido)
    .orderBy('s.id_pedido')
    .limit(1)
    .executeTakeFirst();
}

export interface NewTicketRow {
  id_empresa: number;
  cod_vendedor: number;
  id_pedido: number | null;
  num_ped_sar: number | null;
  num_ped_erp: number | null;
  id_cliente: number | null;
  nome_cliente: string;
  assunto: string;
}

export async function insertTicket(tx: Tx, row: NewTicketRow & { chave?: string | null }): Promise<number> {
  const { id } = await tx.insertInto('app.chamados').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function insertMessage(
  tx: Tx,
  row: {
    id_chamado: number;
    id_empresa: number;
    autor_tipo: 'representante' | 'empresa';
    autor_nome: string;
    texto: string;
    chave?: string | null;
  },
): Promise<void> {
  await tx.insertInto('app.chamado_mensagens').values(row).execute();
}

const ticketColumns = [
  'id',
  'cod_vendedor',
  'id_pedido',
  'num_ped_sar',
  'num_ped_erp',
  'id_cliente',
  'nome_cliente',
  'assunto',
  'status',
  'criado_em',
  'atualizado_em',
] as const;

/** One ticket of the tenant; codVendedor narrows it to a representative's own. FOR UPDATE serialises actions on it. */
export function selectTicket(tx: Tx, idEmpresa: number, id: number, codVendedor: number | null, forUpdate = false) {
  let q = tx.selectFrom('app.chamados').select(ticketColumns).where('id_empresa', '=', idEmpresa).where('id', '=', id);
  if (codVendedor !== null) q = q.where('cod_vendedor', '=', codVendedor);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}
export type TicketRow = NonNullable<Awaited<ReturnType<typeof selectTicket>>>;

export function selectMessages(tx: Tx, idEmpresa: number, idChamado: number) {
  return tx
    .selectFrom('app.chamado_mensagens')
    .select(['id', 'autor_tipo', 'autor_nome', 'texto', 'criado_em'])
    .where('id_empresa', '=', idEmpresa)
    .where('id_chamado', '=', idChamado)
    .orderBy('criado_em')
    .orderBy('id')
    .execute();
}

export async function updateStatus(tx: Tx, idEmpresa: number, id: number, status: TicketStatus): Promise<void> {
  await tx
    .updateTable('app.chamados')
    .set({ status, atualizado_em: sql`now()` })
    .where('id_empresa', '=', idEmpresa)
    .where('id', '=', id)
    .execute();
}

export interface TicketFilters {
  idEmpresa: number;
  codVendedor?: number;
  status?: TicketStatus[];
  idCliente?: number;
  /** A LIKE pattern on nome_cliente (ERP text in the database's encoding), case-insensitive. */
  clienteLike?: string;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

function filtered(tx: Tx, f: TicketFilters) {
  let q = tx.selectFrom('app.chamados').where('id_empresa', '=', f.idEmpresa);
  if (f.codVendedor !== undefined) q = q.where('cod_vendedor', '=', f.codVendedor);
  if (f.status?.length) q = q.where('status', 'in', f.status);
  if (f.idCliente !== undefined) q = q.where('id_cliente', '=', f.idCliente);
  if (f.clienteLike !== undefined) q = q.where('nome_cliente', 'ilike', f.clienteLike);
  // Business days in São Paulo, inclusive.
  if (f.from) q = q.where(sql<boolean>`(criado_em at time zone 'America/Sao_Paulo')::date >= ${f.from}::date`);
  if (f.to) q = q.where(sql<boolean>`(criado_em at time zone 'America/Sao_Paulo')::date <= ${f.to}::date`);
  return q;
}

export async function selectTickets(tx: Tx, f: TicketFilters) {
  const items = await filtered(tx, f)
    .select(ticketColumns)
    .orderBy('atualizado_em', 'desc')
    .orderBy('id', 'desc')
    .limit(f.limit)
    .offset(f.offset)
    .execute();
  const total = await filtered(tx, f).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { items, total: total.n };
}

/** Tickets of the tenant with the device's key (the replication's documents), or these ids. */
export function selectTenantTickets(tx: Tx, idEmpresa: number, ids: readonly number[] | null) {
  let q = tx
    .selectFrom('app.chamados')
    .select([...ticketColumns, 'chave'])
    .where('id_empresa', '=', idEmpresa);
  if (ids !== null) q = q.where('id', 'in', ids.length > 0 ? [...ids] : [0]);
  return q.orderBy('id').execute();
}

/** The messages of several tickets, oldest first, with the device's keys. */
export function selectTenantMessages(tx: Tx, idEmpresa: number, ids: readonly number[]) {
  return tx
    .selectFrom('app.chamado_mensagens')
    .select(['id', 'id_chamado', 'chave', 'autor_tipo', 'autor_nome', 'texto', 'criado_em'])
    .where('id_empresa', '=', idEmpresa)
    .where('id_chamado', 'in', ids.length > 0 ? [...ids] : [0])
    .orderBy('criado_em')
    .orderBy('id')
    .execute();
}

/** The ticket a device opened with this key, or the one of an id written as chamado-<id>. */
export function selectTicketByKey(tx: Tx, idEmpresa: number, key: string) {
  const numeric = /^chamado-(\d{1,15})$/.exec(key);
  let q = tx.selectFrom('app.chamados').select(['id', 'cod_vendedor']).where('id_empresa', '=', idEmpresa);
  q = numeric ? q.where('id', '=', Number(numeric[1])) : q.where('chave', '=', key);
  return q.executeTakeFirst();
}

export async function messageKeyExists(tx: Tx, idEmpresa: number, key: string): Promise<boolean> {
  const row = await tx
    .selectFrom('app.chamado_mensagens')
    .select('id')
    .where('id_empresa', '=', idEmpresa)
    .where('chave', '=', key)
    .executeTakeFirst();
  return row !== undefined;
}
