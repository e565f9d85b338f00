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
  type FlexEntryPage,
  type FlexMove,
  formatBrl,
  type PageQuery,
  round2,
} from '@campo/shared';
import type { RawBuilder } from 'kysely';
import { reaches, scopeOf, teamScope } from '../auth/authorize.ts';
import { drawnDocumentTouch } from '../changelog/changelog.ts';
import { drawnNumber } from '../db/drawn.ts';
import type { Db } from '../db/kysely.ts';
import { type Tx, withScope } from '../db/scope.ts';
import { DomainError, notFound, validationFailed } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { entryOf, flexDocument, orderNumberOf, relogFlex } from './documents.ts';
import * as q from './queries.ts';

/** An order's move of a balance, as reserveFlex, releaseFlex and creditFlex take it. */
export interface OrderFlexMove {
  idEmpresa: number;
  codVendedor: number;
  idPedido: number;
  /** Who moves it: the login, kept in the ledger. */
  by: string;
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
  const valor = round2(amount);
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
  const entry = await q.insertMove(tx, { ...m, tipo, valor, motivo: null, criadoPor: m.by });
  if (!entry) return unmoved(tx, m, true);
  const saldo = await q.creditBalance(tx, m.idEmpresa, m.codVendedor, valor);
  await relogFlex(tx, m.idEmpresa, m.codVendedor);
  return { passed: true, saldo, valor, repeated: false };
}

export interface ReservationResult extends FlexMoveResult {
  /**
   * With `beforeOrderRow`, when the balance moved: the statement that writes the
   * representative's document, for the caller to send in its transaction once the order's row
   * is written (it reads the order's number there).
   */
  log?: RawBuilder<{ escrito: boolean }>;
}

/**
 * An accepted order spends `amount` of its representative's balance: passes only while the
 * balance covers it, whatever runs at once (orders of one representative queue on the balance's
 * row and each is judged on what the one before it left). Runs in the caller's transaction;
 * once per order (a second call moves nothing and answers `repeated`). The representative's
 * document is written in the same transaction: here, or, when the order's row is not written
 * yet (`beforeOrderRow`: its number is not drawn), by the statement answered as `log`.
 */
export async function reserveFlex(
  tx: Tx,
  m: OrderFlexMove & { amount: number; beforeOrderRow?: boolean },
): Promise<ReservationResult> {
  const valor = positiveCents(m.amount);
  if (valor === 0) return unmoved(tx, m, false);
  await q.lockBalance(tx, m.idEmpresa, m.codVendedor);
  // The entry first: it claims the order's reservation, so a repeated call stops here before
  // touching the balance. The document's other entries are read with it (after the lock, so
  // none committed before is missed): no round trip of their own.
  const [entry, prior] = await Promise.all([
    q.insertMove(tx, { ...m, tipo: 'reserva', valor: -valor, motivo: null, criadoPor: m.by }),
    m.beforeOrderRow ? q.selectSyncEntries(tx, m.idEmpresa, [m.codVendedor], FLEX_SYNC_ENTRIES) : [],
  ]);
  if (!entry) return unmoved(tx, m, true);
  const saldo = await q.debitBalance(tx, m.idEmpresa, m.codVendedor, valor);
  if (saldo === null) {
    await q.deleteMove(tx, entry.id);
    return { passed: false, saldo: await q.selectBalance(tx, m.idEmpresa, m.codVendedor), valor: 0, repeated: false };
  }
  const moved = { passed: true, saldo, valor: -valor, repeated: false };
  if (!m.beforeOrderRow) {
    await relogFlex(tx, m.idEmpresa, m.codVendedor);
    return moved;
  }
  const drawn = drawnNumber(orderNumberOf(m.idEmpresa, m.idPedido));
  const own = entryOf({
    id: entry.id,
    cod_vendedor: m.codVendedor,
    tipo: 'reserva',
    valor: -valor,
    id_pedido: m.idPedido,
    num_ped_sar: drawn.placeholder,
    motivo: null,
    criado_por: m.by,
    criado_em: entry.criado_em,
  });
  // The insert may have run before the read, or after it.
  const others = prior.filter((r) => Number(r.id) !== Number(entry.id)).map(entryOf);
  const doc = flexDocument(m.codVendedor, saldo, [own, ...others]);
  return { ...moved, log: drawnDocumentTouch(m.idEmpresa, 'ajustes', doc, drawn) };
}

/**
 * A rejected order gives back what it reserved, read from its reservation in the ledger (none:
 * nothing to give back). Once per order.
 */
export async function releaseFlex(tx: Tx, m: OrderFlexMove): Promise<FlexMoveResult> {
  const reserved = await q.selectOrderMove(tx, m.idEmpresa, m.idPedido, 'reserva');
  return creditOnce(tx, m, 'liberacao', reserved ? round2(-reserved.valor) : 0);
}

/** An approved order credits what it earned (`amount`, the order's flex_gerado). Once per order. */
export function creditFlex(tx: Tx, m: OrderFlexMove & { amount: number }): Promise<FlexMoveResult> {
  return creditOnce(tx, m, 'credito', positiveCents(m.amount));
}

/** The representative named, if the caller may see them; otherwise 404, as if absent. */
async function repInReach(tx: Tx, auth: AuthContext, codVendedor: number) {
  const rep = await q.selectRep(tx, auth.idEmpresa, codVendedor);
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
      if ((await q.selectBalance(tx, idEmpresa, codVendedor)) + valor > FLEX_AMOUNT_MAX) {
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
