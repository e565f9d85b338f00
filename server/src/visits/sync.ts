// Collection visitas: a representative's visits, written on the phone offline under ids it
// makes (UUIDs) and pushed when it is back. A push of a visit the server does not hold checks in
// (and, with saidaEm, checks out right after); a push with saidaEm of a visit the server holds
// open checks out; anything else the server already holds is answered with its state. The same
// push sent twice (a lost answer, a retry) writes one visit. A refusal is per visit: a check-in
// refused comes back as pushed, with the reason, for the representative to fix or discard; a
// check-out refused stays open on the server and carries the reason (kept in app.sync_recusas)
// until a later push closes it (docs/sync.md, docs/visits.md).
import { blankDocument, type SyncPushRow, type SyncRefusal, type SyncVisit, ZCheckIn, ZCheckOut } from '@campo/shared';
import { authorize, type RepresentativeAuth, scopeOf } from '../auth/authorize.ts';
import { touchDocuments } from '../changelog/changelog.ts';
import { answerOf, validationRefusal } from '../changelog/push-answer.ts';
import { dropRefusals, keepRefusal } from '../changelog/refusals.ts';
import type { Db } from '../db/kysely.ts';
import { withScope } from '../db/scope.ts';
import { DomainError } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { loadVisitDocs } from './documents.ts';
import * as q from './queries.ts';
import { checkIn, checkOut } from './service.ts';

/** The server's clocks: the device never knows them, and they come back by pull. */
const STAMPS = ['entradaRecebidaEm', 'saidaRecebidaEm'] as const;

/** The refusal kept on an open visit whose check-out the server could not take. */
const CHECKOUT = 'saida';

async function master(db: Db, auth: RepresentativeAuth, key: string): Promise<SyncVisit | null> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const [doc] = await loadVisitDocs(tx, auth.idEmpresa, [key]);
    return (doc?.doc as SyncVisit | undefined) ?? null;
  });
}

/** The visit as the device pushed it, limited to the contract's fields, with the refusal. */
function refusedVisit(next: Record<string, unknown>, recusa: SyncRefusal): SyncVisit {
  const blank = blankDocument('visitas', String(next.id)) as SyncVisit;
  const pushed = Object.fromEntries(
    Object.keys(blank).map((k) => [k, next[k] ?? (blank as Record<string, unknown>)[k]]),
  );
  return { ...(pushed as SyncVisit), recusa, _deleted: false };
}

/** A rule's refusal (what the representative can fix), or the error itself when it is not one. */
function refusalOf(err: unknown): SyncRefusal {
  if (err instanceof DomainError && err.code !== 'FORBIDDEN' && err.status < 500) {
    return { code: err.code, message: err.detail };
  }
  throw err;
}

/** The server closed the visit itself (left open, no phone could close it): the device's check-out still does. */
async function closedByServer(db: Db, auth: RepresentativeAuth, key: string): Promise<boolean> {
  return withScope(
    db,
    scopeOf(auth),
    async (tx) => (await q.selectVisitClock(tx, auth.idEmpresa, key))?.saida_automatica === true,
  );
}

async function setCheckoutRefusal(db: Db, auth: RepresentativeAuth, key: string, recusa: SyncRefusal | null) {
  await withScope(db, scopeOf(auth), async (tx) => {
    if (recusa) {
      await keepRefusal(tx, auth.idEmpresa, 'visitas', auth.codVendedor, { chave: key, item: CHECKOUT, dados: recusa });
    } else if ((await dropRefusals(tx, auth.idEmpresa, 'visitas', key, [CHECKOUT])) === 0) {
      return;
    }
    await touchDocuments(
      tx,
      auth.idEmpresa,
      'visitas',
      auth.codVendedor,
      await loadVisitDocs(tx, auth.idEmpresa, [key]),
    );
  });
}

async function pushOne(db: Db, auth: RepresentativeAuth, row: SyncPushRow): Promise<SyncVisit | null> {
  const next = row.newDocumentState as Record<string, unknown>;
  const key = row.newDocumentState.id;
  let held = await master(db, auth, key);
  // The representative discarded a visit the server refused: nothing to do. Visits the server
  // holds are never deleted: the device gets it back.
  if (next._deleted === true) return held;
  if (held === null) {
    const input = ZCheckIn.safeParse({
      id: key,
      idCliente: next.idCliente,
      em: next.entradaEm,
      posicao: next.posicao ?? null,
    });
    if (!input.success) return refusedVisit(next, validationRefusal(input.error));
    try {
      await checkIn(db, auth, input.data);
    } catch (err) {
      return refusedVisit(next, refusalOf(err));
    }
    held = await master(db, auth, key);
    if (held === null) return null;
  }
  if (typeof next.saidaEm === 'string' && (held.saidaEm === null || (await closedByServer(db, auth, key)))) {
    const input = ZCheckOut.safeParse({
      em: next.saidaEm,
      posicao: next.saidaPosicao ?? null,
      idMotivo: next.idMotivo ?? null,
      observacao: next.observacao ?? null,
    });
    let recusa: SyncRefusal | null = null;
    if (!input.success) recusa = validationRefusal(input.error);
    else {
      try {
        await checkOut(db, auth, key, input.data);
      } catch (err) {
        recusa = refusalOf(err);
      }
    }
    await setCheckoutRefusal(db, auth, key, recusa);
    held = await master(db, auth, key);
  }
  return held;
}

/**
 * Each visit on its own: one refused comes back with its reason and the rest of the batch is
 * applied.
 */
export async function pushVisits(db: Db, auth: AuthContext, rows: SyncPushRow[]) {
  // Passed already by the sync layer (sync.representative, the same roles): typed here.
  const rep = authorize(auth, 'visits.representative');
  const masters: (SyncVisit | null)[] = [];
  for (const row of rows) masters.push(await pushOne(db, rep, row));
  return answerOf(rows, masters, STAMPS);
}
