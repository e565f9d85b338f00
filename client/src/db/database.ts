// The device's local store: one RxDB database on Dexie/IndexedDB per user and tenant, so a
// phone shared between two representatives never shows one the other's portfolio, and a
// logout or revoked session can wipe exactly that user's data.
import { type Role, SYNC_COLLECTIONS, SYNC_REPRESENTATIVE_ONLY, type SyncCollection } from '@campo/shared';
import { addRxPlugin, createRxDatabase, type RxCollection, type RxDatabase, removeRxDatabase } from 'rxdb';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { type CampoDocTypes, MIGRATIONS, SCHEMAS } from './schemas.ts';

addRxPlugin(RxDBLeaderElectionPlugin);
// A store written by an older release is migrated when it opens (schemas.ts, "Versions").
addRxPlugin(RxDBMigrationSchemaPlugin);

/** Documents per write while a store of an older release is migrated on open. */
const MIGRATION_BATCH = 500;

export type CampoCollections = { [C in SyncCollection]: RxCollection<CampoDocTypes[C]> };

/** Supervisors, managers and admins open only the reference collections. */
export type CampoDatabase = RxDatabase<Partial<CampoCollections>> & {
  readonly campo: { readonly user: CampoUser; readonly collections: readonly SyncCollection[] };
};

export interface CampoUser {
  id: number;
  idEmpresa: number;
  role: Role;
}

/** What Dexie needs outside a browser (fake-indexeddb in Node tests). */
export interface IndexedDbApi {
  indexedDB: unknown;
  IDBKeyRange: unknown;
}

export interface OpenCampoDbOptions {
  user: CampoUser;
  /** Defaults to the browser's IndexedDB. */
  indexedDb?: IndexedDbApi;
  /** Several tabs share one store; false in Node tests, where there is one instance. */
  multiInstance?: boolean;
  /**
   * The schemas to open with; the current ones (SCHEMAS, MIGRATIONS) by default. Upgrade tests
   * open a store with a frozen older release's schemas first (test/fixtures/schemas-v0.ts).
   * Only the collections named are opened, as that release had them (visitas came with 7).
   */
  schemas?: Partial<Record<SyncCollection, { schema: unknown; migrationStrategies?: unknown }>>;
}

/** RxDB names allow [a-z0-9_$-]; the ids are integers. */
export function campoDbName(user: Pick<CampoUser, 'id' | 'idEmpresa'>): string {
  return `campo_e${user.idEmpresa}_u${user.id}`;
}

/**
 * The collections a role replicates. Fewer collections also matters for RxDB's open-source
 * limit of 13 open collections per JavaScript realm.
 */
export function collectionsFor(role: Role): readonly SyncCollection[] {
  if (role === 'representative') return SYNC_COLLECTIONS;
  const repOnly: readonly SyncCollection[] = SYNC_REPRESENTATIVE_ONLY;
  return SYNC_COLLECTIONS.filter((c) => !repOnly.includes(c));
}

function storageOf(indexedDb: IndexedDbApi | undefined) {
  // DexieSettings types these as the DOM's IDBFactory/IDBKeyRange, which Node's types lack.
  return getRxStorageDexie(indexedDb as Parameters<typeof getRxStorageDexie>[0]);
}

export async function openCampoDb(options: OpenCampoDbOptions): Promise<CampoDatabase> {
  const collections = collectionsFor(options.user.role).filter((c) => !options.schemas || c in options.schemas);
  const db = await createRxDatabase<Partial<CampoCollections>>({
    name: campoDbName(options.user),
    storage: storageOf(options.indexedDb),
    multiInstance: options.multiInstance ?? true,
    // A device that died mid-write must reopen its store, not fail on a stale lock.
    closeDuplicates: true,
  });
  try {
    // addCollections runs the migration strategies of a store written by an older release
    // before it resolves, so no screen or replication ever reads a document of the old shape.
    await db.addCollections(
      Object.fromEntries(
        collections.map((c) => [
          c,
          {
            ...((options.schemas?.[c] as object) ?? { schema: SCHEMAS[c], migrationStrategies: MIGRATIONS[c] }),
            autoMigrate: false,
          } as never,
        ]),
      ),
    );
    // RxDB's own migration on open moves 10 documents at a time: tens of thousands of products
    // took that many round trips through IndexedDB before the app could open.
    await Promise.all(Object.values(db.collections).map((c) => (c as RxCollection).migratePromise(MIGRATION_BATCH)));
  } catch (err) {
    await db.close();
    throw err;
  }
  return Object.assign(db, { campo: { user: options.user, collections } });
}

/** The collection, or an error naming it when the user's role does not replicate it. */
export function collectionOf<C extends SyncCollection>(db: CampoDatabase, name: C): CampoCollections[C] {
  const collection = (db.collections as Partial<CampoCollections>)[name];
  if (!collection) throw new Error(`a coleção ${name} não existe para o perfil ${db.campo.user.role}`);
  return collection as CampoCollections[C];
}

/**
 * Removes the user's local data (logout, revoked session). Works whether or not the database
 * is open; stop the replication first so no pull writes into a store being removed.
 */
export async function wipe(
  target: CampoDatabase | { user: Pick<CampoUser, 'id' | 'idEmpresa'>; indexedDb?: IndexedDbApi },
): Promise<void> {
  if ('campo' in target) {
    await target.remove();
    return;
  }
  await removeRxDatabase(campoDbName(target.user), storageOf(target.indexedDb));
}
