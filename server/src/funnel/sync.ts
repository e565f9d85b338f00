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
  type Opportunity,
  type OpportunityPatch,
  type SyncOpportunity,
  type SyncPushRow,
  ZOpportunityCreate,
  ZOpportunityPatch,
} from '@campo/shared';
import type { AuthContext } from '../auth/claims.ts';
import type { Db } from '../db/kysely.ts';
import { scopeOf, type Tx, withScope } from '../db/scope.ts';
import { fieldErrors, HttpProblem, problems, validationProblem } from '../http/problem.ts';
import type { SyncDoc } from '../sync/changelog.ts';
import * as q from './queries.ts';
import { createOpportunity, deleteOpportunity, toApi, updateOpportunity } from './service.ts';

const FIELDS = [
  'estagio',
  'idCliente',
  'nomeProspect',
  'empresaProspect',
  'idPedido',
  'valor',
  'previsaoFechamento',
  'observacoes',
  'motivoPerda',
] as const;

export function opportunitySyncDoc(o: Opportunity, codVendedor: number): SyncDoc {
  const doc: SyncOpportunity = { ...o, _deleted: false };
  return { chave: o.id, escopo: codVendedor, documento: o.id, doc };
}

export async function loadOpportunityDocs(tx: Tx, idEmpresa: number, chaves: string[] | null): Promise<SyncDoc[]> {
  const rows = await q.selectTenantOpportunities(tx, idEmpresa, chaves);
  return rows.map((r) => opportunitySyncDoc(toApi(r), r.cod_vendedor));
}

const tombstone = (id: string): SyncOpportunity => ({ ...(blankDocument('funil', id) as SyncOpportunity) });

async function current(db: Db, auth: AuthContext, id: string) {
  return withScope(db, scopeOf(auth), async (tx) => {
    const owner = await q.selectOwner(tx, auth.idEmpresa, id);
    if (owner && owner.cod_vendedor !== auth.codVendedor) {
      throw problems.forbidden('Este documento pertence a outro representante.');
    }
    const row = owner ? await q.selectOpportunity(tx, auth.idEmpresa, auth.codVendedor as number, id) : undefined;
    return row ? toApi(row) : null;
  });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

async function pushOne(db: Db, auth: AuthContext, row: SyncPushRow): Promise<SyncOpportunity | null> {
  const next = row.newDocumentState as Record<string, unknown>;
  const id = row.newDocumentState.id;
  const server = await current(db, auth, id);
  if (next._deleted === true) {
    if (server) await deleteOpportunity(db, auth, id);
    return null;
  }
  if (!server) {
    // Deleted on the server after this device last saw it: the deletion wins.
    if (row.assumedMasterState !== null) return tombstone(id);
    // A creation retried after its answer was lost (the device still thinks the card is new)
    // while another device deleted it meanwhile: the deletion wins here too, or the retry
    // would bring the deleted card back. The change log keeps the card's tombstone.
    if (await withScope(db, scopeOf(auth), (tx) => q.wasDeleted(tx, auth.idEmpresa, id))) return tombstone(id);
    const input = ZOpportunityCreate.safeParse(Object.fromEntries(['id', ...FIELDS].map((f) => [f, next[f]])));
    if (!input.success) throw validationProblem(fieldErrors(input.error, `body.${id}`));
    try {
      const { body } = await createOpportunity(db, auth, input.data);
      return { ...body, _deleted: false };
    } catch (err) {
      // Row-level security hides another representative's card: its id is simply taken.
      if (err instanceof HttpProblem && err.code === 'OPPORTUNITY_ID_TAKEN') {
        throw problems.forbidden('Este documento pertence a outro representante.');
      }
      throw err;
    }
  }
  const assumed = row.assumedMasterState as Record<string, unknown> | null;
  const changed = FIELDS.filter((f) => !same(next[f], assumed ? assumed[f] : server[f]));
  if (changed.length > 0) {
    const patch = ZOpportunityPatch.safeParse(Object.fromEntries(changed.map((f) => [f, next[f] ?? null])));
    if (!patch.success) throw validationProblem(fieldErrors(patch.error, `body.${id}`));
    try {
      return { ...(await updateOpportunity(db, auth, id, patch.data as OpportunityPatch)), _deleted: false };
    } catch (err) {
      // The merge breaks a rule (lost without a reason, no client nor prospect, a client that
      // left the portfolio): the device gets the server's version back, unchanged.
      if (!(err instanceof HttpProblem) || err.status !== 422) throw err;
    }
  }
  return { ...server, _deleted: false };
}

export async function pushOpportunities(db: Db, auth: AuthContext, rows: SyncPushRow[]) {
  const masters: SyncOpportunity[] = [];
  for (const row of rows) {
    const master = await pushOne(db, auth, row);
    if (master) masters.push(master);
  }
  return masters;
}
