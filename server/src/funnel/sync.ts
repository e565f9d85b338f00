// Collection funil: the representative's opportunities, edited offline on several devices.
//
// Conflict rule (docs/sync.md): a push applies the fields the device changed — those where its
// new state differs from the master state it last saw — over the server's current version,
// through the same service as PATCH /funil/{id} without baseAtualizadoEm. So edits of different
// fields on two devices both survive, and for the same field the push that reaches the server
// last wins (server arrival order, not device clocks). A deletion wins over edits: an edit
// pushed for a card deleted meanwhile gets the tombstone back. Every pushed card gets its
// master state back, with the server's atualizadoEm and client name.
import {
  blankDocument,
  deviceTimeOutside,
  type OpportunityPatch,
  type SyncOpportunity,
  type SyncPushRow,
  type SyncRefusal,
  ZOpportunityCreate,
  ZOpportunityPatch,
} from '@campo/shared';
import { assertOwner, authorize, notYours, type RepresentativeAuth, scopeOf } from '../auth/authorize.ts';
import { touchDocuments } from '../changelog/changelog.ts';
import { answerOf, validationRefusal } from '../changelog/push-answer.ts';
import { dropRefusals, keepRefusal, refusalsOf } from '../changelog/refusals.ts';
import type { Db } from '../db/kysely.ts';
import { withScope } from '../db/scope.ts';
import { DomainError } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { loadOpportunityDocs, toApi } from './documents.ts';
import * as q from './queries.ts';
import { createOpportunity, deleteOpportunity, OpportunityDeleted, PATCHABLE, updateOpportunity } from './service.ts';

/**
 * Keeps (or, with null, drops) the refusal of an edit of the card, and records the card for the
 * devices; false when the card was deleted meanwhile (the deletion wins: no refusal is kept).
 */
async function setRefusal(db: Db, auth: RepresentativeAuth, id: string, recusa: SyncRefusal | null): Promise<boolean> {
  return withScope(db, scopeOf(auth), async (tx) => {
    // Locked, so a deletion cannot slip in between this check and the refusal's row.
    if (!(await q.selectOwner(tx, auth.idEmpresa, id))) return false;
    if (recusa) {
      await keepRefusal(tx, auth.idEmpresa, 'funil', auth.codVendedor, {
        chave: id,
        item: '',
        dados: recusa,
      });
    } else if ((await dropRefusals(tx, auth.idEmpresa, 'funil', id, [''])) === 0) return true;
    await touchDocuments(
      tx,
      auth.idEmpresa,
      'funil',
      auth.codVendedor,
      await loadOpportunityDocs(tx, auth.idEmpresa, [id]),
    );
    return true;
  });
}

/**
 * The deletion that won over this push: the card's last state from the change log's tombstone,
 * or the state this push last read when the log has none.
 */
async function tombstone(db: Db, auth: AuthContext, id: string, last: SyncOpportunity): Promise<SyncOpportunity> {
  const deleted = await withScope(db, scopeOf(auth), (tx) => q.deletedCard(tx, auth.idEmpresa, id));
  return { ...((deleted ?? last) as SyncOpportunity), _deleted: true };
}

/**
 * A card taken as the device sent it keeps the device's own times (criadoEm, atualizadoEm), so
 * the server's state is exactly the device's and the push answers nothing: stamping the
 * server's clock instead would leave the device's RxDB believing the master holds its times,
 * and a pull that crossed the push in flight would never be repeated. A time the server cannot
 * take (unreadable, outside the window of shared/src/device-time.ts, behind the card's) makes
 * the server stamp its own, and then the card is answered like any other difference.
 */
const STAMPS = [] as const;

function deviceTime(value: unknown): Date | undefined {
  if (typeof value !== 'string' || deviceTimeOutside(value, new Date()) !== null) return undefined;
  return new Date(value);
}

async function current(db: Db, auth: AuthContext, id: string) {
  return withScope(db, scopeOf(auth), async (tx) => {
    const owner = await q.selectOwner(tx, auth.idEmpresa, id);
    if (!owner) return null;
    assertOwner(auth, owner.cod_vendedor);
    const row = await q.selectOpportunity(tx, auth.idEmpresa, auth.codVendedor, id);
    if (!row) return null;
    const recusa = (await refusalsOf(tx, auth.idEmpresa, 'funil', [id])).get(id)?.[0]?.dados as SyncRefusal | undefined;
    return { ...toApi(row), ...(recusa ? { recusa } : {}) } as SyncOpportunity;
  });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A business refusal (a client gone from the portfolio, an order not found, a rule of the card). */
const isRefusal = (err: unknown): err is DomainError =>
  err instanceof DomainError && (err.status === 400 || err.status === 422 || err.code === 'NOT_FOUND');

const refusalOf = (err: DomainError, campos?: Record<string, unknown>): SyncRefusal => ({
  code: err.code,
  message: err.detail,
  ...(campos ? { campos } : {}),
});

/** The card as the device pushed it, limited to the contract's fields, with the refusal. */
function refusedCreation(next: Record<string, unknown>, recusa: SyncRefusal): SyncOpportunity {
  const blank = blankDocument('funil', String(next.id)) as SyncOpportunity;
  const pushed = Object.fromEntries(
    Object.keys(blank).map((k) => [k, next[k] ?? (blank as Record<string, unknown>)[k]]),
  );
  return { ...(pushed as SyncOpportunity), recusa, _deleted: false };
}

async function pushOne(
  db: Db,
  auth: RepresentativeAuth,
  row: SyncPushRow,
  reread = false,
): Promise<SyncOpportunity | null> {
  const next = row.newDocumentState as Record<string, unknown>;
  const id = row.newDocumentState.id;
  const server = await current(db, auth, id);
  if (next._deleted === true) {
    // A copy of this push, another device or a REST delete may have deleted it since: the
    // device's state stands either way, and the rest of the batch goes on.
    if (server) await deleteOpportunity(db, auth, id, { ifPresent: true });
    return null;
  }
  if (!server) {
    // Deleted on the server after this device last saw it, or a creation retried after its
    // answer was lost while another device deleted the card: the deletion wins, or the retry
    // would bring the deleted card back. The change log keeps the card's last state.
    const deleted = await withScope(db, scopeOf(auth), (tx) => q.deletedCard(tx, auth.idEmpresa, id));
    if (deleted) return { ...(deleted as SyncOpportunity), _deleted: true };
    // New to the server, or a refused creation the representative fixed: create it.
    const input = ZOpportunityCreate.safeParse(Object.fromEntries(['id', ...PATCHABLE].map((f) => [f, next[f]])));
    if (!input.success) return refusedCreation(next, validationRefusal(input.error));
    try {
      const { body } = await createOpportunity(
        db,
        auth,
        input.data,
        { criadoEm: deviceTime(next.criadoEm), atualizadoEm: deviceTime(next.atualizadoEm) },
        { deletionWins: true },
      );
      return { ...body, _deleted: false };
    } catch (err) {
      // Created by a copy of this push and deleted, both since the read above.
      if (err instanceof OpportunityDeleted) return { ...(err.card as SyncOpportunity), _deleted: true };
      if (err instanceof DomainError && err.code === 'OPPORTUNITY_ID_TAKEN') {
        // Created since the read above, with other content: a retry of the creation carrying a
        // later edit crossed its original. Read again, the card is this device's to edit.
        if (!reread) return pushOne(db, auth, row, true);
        // Row-level security hides another representative's card: its id is simply taken.
        throw notYours();
      }
      if (isRefusal(err)) return refusedCreation(next, refusalOf(err));
      throw err;
    }
  }
  const assumed = row.assumedMasterState as Record<string, unknown> | null;
  // The representative fixed or discarded a refused edit: this device saw the refusal (its
  // assumed master has it) and no longer holds it. Another device's edit leaves it alone.
  if (assumed?.recusa && !next.recusa && server.recusa) {
    if (!(await setRefusal(db, auth, id, null))) return tombstone(db, auth, id, server);
    delete server.recusa;
  }
  const changed = PATCHABLE.filter((f) => !same(next[f], assumed ? assumed[f] : server[f]));
  if (changed.length === 0) return { ...server, _deleted: false };
  const campos = Object.fromEntries(changed.map((f) => [f, next[f] ?? null]));
  const patch = ZOpportunityPatch.safeParse(campos);
  // The edit is not taken: the device gets the server's card back with the reason and the
  // values it had sent, kept on the card until the representative fixes or discards it.
  const refuse = async (recusa: SyncRefusal): Promise<SyncOpportunity> => {
    if (!(await setRefusal(db, auth, id, recusa))) return tombstone(db, auth, id, server);
    return { ...server, recusa, _deleted: false };
  };
  if (!patch.success) return refuse(validationRefusal(patch.error, campos));
  try {
    const at = { atualizadoEm: deviceTime(next.atualizadoEm) };
    const edited = await updateOpportunity(db, auth, id, patch.data as OpportunityPatch, at, { unlessApplied: true });
    return { ...edited, _deleted: false };
  } catch (err) {
    // Deleted since the read above (a copy of this push, another device, a REST delete): the
    // deletion wins over the edit, never a refusal kept on a card that is gone.
    if (err instanceof DomainError && err.code === 'NOT_FOUND') return tombstone(db, auth, id, server);
    if (isRefusal(err)) return refuse(refusalOf(err, campos));
    throw err;
  }
}

/**
 * Each card on its own: a refused one comes back with its reason and the rest of the batch is
 * applied. Only a card of another representative refuses the whole push (403: scope).
 */
export async function pushOpportunities(db: Db, auth: AuthContext, rows: SyncPushRow[]) {
  // Passed already by the sync layer (sync.representative, the same roles): typed here.
  const rep = authorize(auth, 'funnel.use');
  const masters: (SyncOpportunity | null)[] = [];
  for (const row of rows) masters.push(await pushOne(db, rep, row));
  return answerOf(rows, masters, STAMPS);
}
