// The replication pull (RxDB checkpoint iteration; docs/sync.md): the documents whose
// revision in the change log is after the device's checkpoint, in revision order.
import {
  decodeCheckpoint,
  encodeCheckpoint,
  SYNC_COLLECTIONS,
  type SyncCollection,
  type SyncPull,
  type SyncPullQuery,
  type SyncRefreshCounts,
} from '@campo/shared';
import type { AuthContext } from '../auth/claims.ts';
import type { Db } from '../db/kysely.ts';
import { type Scope, scopeOf, type Tx, withScope } from '../db/scope.ts';
import { HttpProblem, problems } from '../http/problem.ts';
import { type DocumentRow, documentsOf, hasChangeLog, idOfKey, refreshChangeLog } from './changelog.ts';
import { selectChanges } from './queries.ts';

export function collectionOf(name: string): SyncCollection {
  const found = SYNC_COLLECTIONS.find((c) => c === name);
  if (!found) throw problems.notFound('Coleção');
  return found;
}

/**
 * What a checkpoint is valid for. Supervisors, managers and admins read the tenant's whole
 * collection for now (a supervisor's team is not narrowed yet), so they share the scope `*`.
 */
function scopeKey(scope: Scope, colecao: SyncCollection): string {
  return `${scope.idEmpresa}:${colecao}:${scope.codVendedor ?? '*'}`;
}

function checkpointAfter(value: string | undefined, expectedScope: string): number {
  if (value === undefined) return 0;
  const data = decodeCheckpoint(value);
  if (!data) throw new HttpProblem(400, 'CHECKPOINT_INVALID', 'Checkpoint inválido', 'Checkpoint malformado.');
  if (data.scope !== expectedScope)
    throw new HttpProblem(
      400,
      'CHECKPOINT_SCOPE',
      'Checkpoint inválido',
      'O checkpoint é de outro usuário ou de outra coleção: sincronize do início.',
    );
  return data.revisao;
}

/** Tenant-wide: the documents of every portfolio are built, whoever asked. */
const tenantScope = (idEmpresa: number): Scope => ({ idEmpresa, codVendedor: null });

/** Refreshes one collection's change log of the tenant. */
export function refreshCollection(db: Db, idEmpresa: number, colecao: SyncCollection): Promise<SyncRefreshCounts> {
  return withScope(db, tenantScope(idEmpresa), (tx) => refreshChangeLog(tx, idEmpresa, colecao));
}

/** Refreshes every replicated collection of the tenant in one transaction. */
export async function refreshAll(tx: Tx, idEmpresa: number): Promise<Record<SyncCollection, SyncRefreshCounts>> {
  return {
    produtos: await refreshChangeLog(tx, idEmpresa, 'produtos'),
    clientes: await refreshChangeLog(tx, idEmpresa, 'clientes'),
  };
}

/** A fresh install works without POST /catalog/sync: the first pull fills an empty log. */
async function ensureChangeLog(db: Db, idEmpresa: number, colecao: SyncCollection): Promise<void> {
  const empty = await withScope(
    db,
    tenantScope(idEmpresa),
    async (tx) => !(await hasChangeLog(tx, idEmpresa, colecao)),
  );
  if (!empty) return;
  await withScope(db, tenantScope(idEmpresa), async (tx) => {
    // Another first pull may have filled it while this one waited for the refresh lock.
    if (!(await hasChangeLog(tx, idEmpresa, colecao))) await refreshChangeLog(tx, idEmpresa, colecao);
  });
}

export async function pull(db: Db, auth: AuthContext, name: string, query: SyncPullQuery): Promise<SyncPull> {
  const colecao = collectionOf(name);
  const scope = scopeOf(auth);
  const key = scopeKey(scope, colecao);
  const after = checkpointAfter(query.checkpoint, key);
  if (after === 0) await ensureChangeLog(db, scope.idEmpresa, colecao);
  return withScope(db, scope, async (tx) => {
    const changes = await selectChanges(tx, {
      idEmpresa: scope.idEmpresa,
      colecao,
      codVendedor: scope.codVendedor,
      after,
      limit: query.limit,
    });
    const live = changes.filter((c) => !c.excluido).map((c) => idOfKey(c.chave));
    const built =
      live.length > 0 ? (await documentsOf(colecao, scope.idEmpresa, live).execute(tx)).rows : ([] as DocumentRow[]);
    const byKey = new Map(built.map((d) => [d.chave, d.doc]));
    const documents = changes.map((c) => {
      // A key that left the ERP since the last refresh is a deletion already.
      const doc = c.excluido ? undefined : byKey.get(c.chave);
      return (doc ?? { id: idOfKey(c.chave), _deleted: true }) as SyncPull['documents'][number];
    });
    const last = changes.at(-1);
    return { documents, checkpoint: encodeCheckpoint({ revisao: last ? last.revisao : after, scope: key }) };
  });
}
