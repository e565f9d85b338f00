// The representatives' flex balances as a ledger (docs/credit-and-flex.md, "The ledger"). Every
// move writes an entry of app.flex_lancamentos and changes app.flex_saldos, the entries' sum, in
// the same transaction. Orders move a balance through reserveFlex, releaseFlex and creditFlex,
// inside the order's own transaction; a manager through an adjustment. The balance never goes
// below zero: a debit is one conditional update (queries.ts, debitBalance).
import {
  encodeLossless,
  FLEX_AMOUNT_MAX,
  FLEX_SYNC_ENTRIES,
  type FlexAdjustment,
  type FlexAdjustmentResult,
  type FlexBalancePage,
  type FlexEntry,
  type FlexEntryPage,
  type FlexMove,
  formatBrl,
  type PageQuery,
  round2,
  sumMoney,
} from '@campo/shared';
import type { RawBuilder } from 'kysely';
import { reaches, scopeOf, teamScope } from '../auth/authorize.ts';
import { drawnDocumentWrite } from '../changelog/changelog.ts';
import { drawnNumber } from '../db/drawn.ts';
import type { Db } from '../db/kysely.ts';
import { type Pipeline, type Tx, withScope } from '../db/scope.ts';
import { findRep } from '../directory/service.ts';
import { DomainError, notFound, validationFailed } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { entryOf, flexDocument, flexDocumentKey, relogFlex } from './documents.ts';
import * as q from './queries.ts';

/** An order's move of a balance, as reserveFlex, releaseFlex and creditFlex take it. */
export interface OrderFlexMove {
  idEmpresa: number;
  codVendedor: number;
  idPedido: number;
  /** Who moves it: the login, kept in the ledger. */
  by: string;
  /** Why, kept in the ledger beside an order's move (the ERP cancelling it); none otherwise. */
  motivo?: string;
}

export interface FlexMoveResult {
  /** False only for a reservation the balance did not cover: nothing was moved. */
  passed: boolean;
  /** The balance after the move (or now, when nothing moved). */
  saldo: number;
  /** What this call moved, signed; 0 when nothing moved. */
  valor: number;
  /** The order had already made this move: nothing moved again. */
  repeated: boolean;
}

function positiveCents(amount: number): number {
  const valor = Number.isFinite(amount) ? round2(amount) : Number.NaN;
  // A caller's bug, not a user's input: the order computed it.
  if (!Number.isFinite(valor) || valor < 0) throw new TypeError(`flex: amount ${amount} is not 0 or more`);
  return valor;
}

const unmoved = async (tx: Tx, m: OrderFlexMove, repeated: boolean): Promise<FlexMoveResult> => ({
  passed: true,
  saldo: await q.selectBalance(tx, m.idEmpresa, m.codVendedor),
  valor: 0,
  repeated,
});

/** Adds to the balance the order's move of `tipo`, once per order. */
async function creditOnce(tx: Tx, m: OrderFlexMove, tipo: FlexMove, valor: number): Promise<FlexMoveResult> {
  if (valor === 0) return unmoved(tx, m, false);
  await q.lockBalance(tx, m.idEmpresa, m.codVendedor);
  const entry = await q.insertMove(tx, { ...m, tipo, valor, motivo: m.motivo ?? null, criadoPor: m.by });
  if (!entry) return unmoved(tx, m, true);
  const saldo = await q.creditBalance(tx, m.idEmpresa, m.codVendedor, valor);
  await relogFlex(tx, m.idEmpresa, m.codVendedor);
  return { passed: true, saldo, valor, repeated: false };
}

/**
 * An accepted order spends `amount` of its representative's balance: passes only while the
 * balance covers it, whatever runs at once (orders of one representative queue on the balance's
 * lock and each is judged on what the one before it left). Runs in the caller's transaction and
 * writes the representative's document there; once per order (a second call moves nothing and
 * answers `repeated`). A new order's own reservation takes reserveNewOrderFlex, its fast path.
 */
export async function reserveFlex(tx: Tx, m: OrderFlexMove & { amount: number }): Promise<FlexMoveResult> {
  const valor = positiveCents(m.amount);
  if (valor === 0) return unmoved(tx, m, false);
  await q.lockBalance(tx, m.idEmpresa, m.codVendedor);
  // The entry first: it claims the order's reservation, so a repeated call stops here before
  // touching the balance.
  const entry = await q.insertMove(tx, { ...m, tipo: 'reserva', valor: -valor, motivo: null, criadoPor: m.by });
  if (!entry) return unmoved(tx, m, true);
  const saldo = await q.debitBalance(tx, m.idEmpresa, m.codVendedor, valor);
  if (saldo === null) {
    await q.deleteMove(tx, entry.id);
    return { passed: false, saldo: await q.selectBalance(tx, m.idEmpresa, m.codVendedor), valor: 0, repeated: false };
  }
  await relogFlex(tx, m.idEmpresa, m.codVendedor);
  return { passed: true, saldo, valor: -valor, repeated: false };
}

export interface NewOrderReservation extends FlexMoveResult {
  /**
   * When the balance moved: the change-log write of the representative's document (the
   * change log's drawnDocumentWrite), for the order's last statement, which has its row: the
   * reservation's entry shows the order's number, read there.
   */
  write: RawBuilder<unknown> | null;
}

/**
 * reserveFlex for an order whose row is not written yet, under the id its own transaction drew
 * (so no other transaction can reserve for it): two statements in one round trip of the order's
 * pipeline, the locks (queries.ts, lockOrderBalanceSql) and the reservation (reserveForOrderSql),
 * instead of four statements in three. The document is built from the entries the reservation
 * read and its own entry, and written by the order's last statement (`write`), with the order's
 * number as `orderNumber` reads it there.
 */
export async function reserveNewOrderFlex(
  p: Pick<Pipeline, 'send'>,
  m: OrderFlexMove & { amount: number; orderNumber: RawBuilder<number> },
): Promise<NewOrderReservation> {
  const valor = positiveCents(m.amount);
  const [, rows] = await Promise.all([
    p.send(q.lockOrderBalanceSql(m.idEmpresa, m.codVendedor)),
    p.send(
      q.reserveForOrderSql({
        idEmpresa: m.idEmpresa,
        codVendedor: m.codVendedor,
        idPedido: m.idPedido,
        valor,
        criadoPor: m.by,
        chave: flexDocumentKey(m.codVendedor),
        // With its own entry, the document's FLEX_SYNC_ENTRIES.
        perRep: FLEX_SYNC_ENTRIES - 1,
      }),
    ),
  ]);
  const head = rows[0];
  if (!head) throw new Error('flex: the reservation answered no row');
  const saldo = Number(head.saldo);
  if (head.novo_id === null || head.novo_em === null) {
    return { passed: false, saldo, valor: 0, repeated: false, write: null };
  }
  const drawn = drawnNumber(m.orderNumber);
  const own = entryOf({
    id: head.novo_id,
    cod_vendedor: m.codVendedor,
    tipo: 'reserva',
    valor: -valor,
    id_pedido: m.idPedido,
    num_ped_sar: drawn.placeholder,
    motivo: null,
    criado_por: m.by,
    criado_em: head.novo_em,
  });
  // The logged document's entries, or those read without one; the statement's read does not
  // see the entry it writes: the others are the earlier ones.
  const others =
    head.documento === null
      ? rows.flatMap((r) => (r.id === null ? [] : [entryOf(r as q.EntryRow)]))
      : (JSON.parse(head.documento) as { flex: { lancamentos: FlexEntry[] } }).flex.lancamentos;
  const doc = flexDocument(m.codVendedor, saldo, [own, ...others]);
  return {
    passed: true,
    saldo,
    valor: -valor,
    repeated: false,
    write: drawnDocumentWrite(m.idEmpresa, 'ajustes', doc, drawn),
  };
}

/**
 * A rejected order gives back what it reserved, read from its reservation in the ledger (none:
 * nothing to give back). Once per order.
 */
export async function releaseFlex(tx: Tx, m: OrderFlexMove): Promise<FlexMoveResult> {
  const reserved = await q.selectOrderMove(tx, m.idEmpresa, m.idPedido, 'reserva');
  return creditOnce(tx, m, 'liberacao', reserved ? round2(-reserved.valor) : 0);
}

/**
 * An approved order the ERP cancelled takes back what its approval credited, read from its
 * credit in the ledger (none: nothing to take back), as much as the balance holds: the balance
 * never goes below zero, and what the representative already spent of it stays spent
 * (docs/credit-and-flex.md, "When the ERP ends an order"). Once per order.
 */
export async function reverseFlexCredit(tx: Tx, m: OrderFlexMove): Promise<FlexMoveResult> {
  const credited = await q.selectOrderMove(tx, m.idEmpresa, m.idPedido, 'credito');
  if (!credited) return unmoved(tx, m, false);
  // Under the balance's lock every move waits for this one: the balance read is the one debited.
  await q.lockBalance(tx, m.idEmpresa, m.codVendedor);
  const valor = round2(Math.min(Number(credited.valor), await q.selectBalance(tx, m.idEmpresa, m.codVendedor)));
  if (valor <= 0) return unmoved(tx, m, false);
  const entry = await q.insertMove(tx, {
    ...m,
    tipo: 'estorno',
    valor: -valor,
    motivo: m.motivo ?? null,
    criadoPor: m.by,
  });
  if (!entry) return unmoved(tx, m, true);
  const saldo = await q.debitBalance(tx, m.idEmpresa, m.codVendedor, valor);
  if (saldo === null) throw new Error('flex: the reversal found less than the balance it read under its lock');
  await relogFlex(tx, m.idEmpresa, m.codVendedor);
  return { passed: true, saldo, valor: -valor, repeated: false };
}

/** An approved order credits what it earned (`amount`, the order's flex_gerado). Once per order. */
export function creditFlex(tx: Tx, m: OrderFlexMove & { amount: number }): Promise<FlexMoveResult> {
  return creditOnce(tx, m, 'credito', positiveCents(m.amount));
}

/** The representative named, if the caller may see them; otherwise 404, as if absent. */
async function repInReach(tx: Tx, auth: AuthContext, codVendedor: number) {
  const rep = await findRep(tx, auth.idEmpresa, codVendedor);
  if (!rep || !reaches(auth, { codVendedor: rep.cod_vendedor, codSupervisor: rep.cod_supervisor })) {
    throw notFound('Representante');
  }
  return { codVendedor, nome: rep.nome ?? '' };
}

const limits = (page: PageQuery) => ({ limit: page.pageSize, offset: (page.page - 1) * page.pageSize });
const iso = (d: Date | string) => new Date(d).toISOString();

/** The balances the caller may see: their own, their team's, or the tenant's. */
export function listBalances(db: Db, auth: AuthContext, page: PageQuery): Promise<FlexBalancePage> {
  const empty = { items: [], page: page.page, pageSize: page.pageSize, total: 0 };
  const scope = teamScope(auth);
  if (scope === null) return Promise.resolve(empty);
  return withScope(db, scopeOf(auth), async (tx) => {
    const { items, total } = await q.selectBalances(tx, auth.idEmpresa, scope, limits(page));
    return {
      items: items.map((r) => ({
        codVendedor: r.cod_vendedor as number,
        nome: r.nome ?? '',
        codSupervisor: r.cod_supervisor,
        saldo: Number(r.saldo),
        ultimoMovimentoEm: r.ultimo === null ? null : iso(r.ultimo),
      })),
      page: page.page,
      pageSize: page.pageSize,
      total,
    };
  });
}

/** A representative's ledger, newest first, with the balance now. */
export function listEntries(db: Db, auth: AuthContext, codVendedor: number, page: PageQuery): Promise<FlexEntryPage> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const rep = await repInReach(tx, auth, codVendedor);
    const { items, total } = await q.selectEntries(tx, auth.idEmpresa, codVendedor, limits(page));
    return {
      ...rep,
      saldo: await q.selectBalance(tx, auth.idEmpresa, codVendedor),
      items: items.map(entryOf),
      page: page.page,
      pageSize: page.pageSize,
      total,
    };
  });
}

/**
 * A manager's credit or debit of a representative's balance, with its reason. A debit beyond the
 * balance is refused (FLEX_BALANCE_INSUFFICIENT, with the balance now) and changes nothing.
 */
export function adjustFlex(
  db: Db,
  auth: AuthContext,
  codVendedor: number,
  input: FlexAdjustment,
): Promise<FlexAdjustmentResult> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const rep = await repInReach(tx, auth, codVendedor);
    const { idEmpresa } = auth;
    const valor = round2(input.valor);
    await q.lockBalance(tx, idEmpresa, codVendedor);
    let saldo: number;
    if (valor > 0) {
      // The balance's column holds numeric(14,2): a credit past it is the input's fault, not a 500.
      if (sumMoney([await q.selectBalance(tx, idEmpresa, codVendedor), valor]) > FLEX_AMOUNT_MAX) {
        throw validationFailed([
          { path: 'body.valor', message: `o saldo passaria do máximo de ${formatBrl(FLEX_AMOUNT_MAX)}` },
        ]);
      }
      saldo = await q.creditBalance(tx, idEmpresa, codVendedor, valor);
    } else {
      const after = await q.debitBalance(tx, idEmpresa, codVendedor, -valor);
      if (after === null) {
        const now = await q.selectBalance(tx, idEmpresa, codVendedor);
        throw new DomainError(
          'FLEX_BALANCE_INSUFFICIENT',
          `O saldo flex de ${rep.nome} é ${formatBrl(now)}; não cobre o débito de ${formatBrl(-valor)}.`,
          { saldo: now, valor },
        );
      }
      saldo = after;
    }
    const motivo = input.motivo;
    const base = { idEmpresa, codVendedor, tipo: 'ajuste' as const, valor, idPedido: null, criadoPor: auth.login };
    const entry = await q.insertMove(tx, { ...base, motivo: encodeLossless(motivo) });
    // An adjustment names no order, so nothing can make its insert a repeat.
    if (!entry) throw new Error('flex: an adjustment was not written');
    await relogFlex(tx, idEmpresa, codVendedor);
    return {
      saldo,
      lancamento: {
        id: entry.id,
        codVendedor,
        tipo: 'ajuste',
        valor,
        idPedido: null,
        numPedSar: null,
        motivo,
        criadoPor: auth.login,
        criadoEm: iso(entry.criado_em),
      },
    };
  });
}
