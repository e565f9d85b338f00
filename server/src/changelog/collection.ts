// What a replicated collection is made of (docs/sync.md; docs/ARCHITECTURE.md, "Layers of the
// server"). Each owning domain exports its collections' definitions from its collection.ts, and
// the sync layer's registry (sync/collections.ts) is the table of them: the sync layer reads a
// definition to authorise a pull, build and refresh the documents, apply a push and name the
// document's schema, so it never asks which collection it holds.
import type { SyncPushResult, SyncPushRow, SyncServedCollection } from '@campo/shared';
import type { RawBuilder } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/kysely.ts';
import type { Tx } from '../db/scope.ts';
import type { AuthContext } from '../http/env.ts';

/** A document built in TypeScript, with its change-log key. */
export interface SyncDoc {
  chave: string;
  escopo: number | null;
  documento: string;
  doc: Record<string, unknown>;
}

/** A document built in SQL, with its change-log key. */
export interface DocumentRow {
  chave: string;
  escopo: number | null;
  /** The id the device knows the document by. */
  documento: string;
  doc: unknown;
}

/** Builds the tenant's documents in TypeScript from bulk reads: all (chaves null) or those of the keys. */
export type DocumentLoader = (tx: Tx, idEmpresa: number, chaves: string[] | null) => Promise<SyncDoc[]>;

/**
 * An ERP-derived collection built in SQL (the catalog, the portfolios): one builder serves the
 * refresh (the hash) and the pull (the current JSON of the changed keys), so both always agree.
 * A key's part before '@' is the document's id (idOfKey).
 */
export interface SqlDocuments<C extends SyncServedCollection = SyncServedCollection> {
  colecao: C;
  /** Every document of the tenant (ids null), or those of the given ids, with their keys. */
  documents(idEmpresa: number, ids: number[] | null): RawBuilder<DocumentRow>;
  /** The keys alone, for finding the ones gone from the ERP without building documents. */
  keys(idEmpresa: number): RawBuilder<{ chave: string }>;
}

/** Applies a device's push: the masters the device must adopt (changelog/push-answer.ts). */
export type PushHandler = (db: Db, auth: AuthContext, rows: SyncPushRow[]) => Promise<SyncPushResult>;

interface Definition<C extends SyncServedCollection> {
  name: C;
  /** A representative's own work: only representatives replicate it (the action sync.representative). */
  representativeOnly: boolean;
  /** The document's named schema in the OpenAPI document (components/schemas, named in docs/sync.md). */
  document: { name: string; schema: z.ZodType };
  /** How a device's writes are applied; absent: the collection is read-only (a push answers 404). */
  push?: PushHandler;
  /** What the domain brings up to date before a full refresh reads its source. */
  beforeRefresh?: (tx: Tx, idEmpresa: number) => Promise<void>;
  /**
   * Every representative's document of the collection has one id (the ceilings, 'tetos'): a
   * reader who is not a representative has none, and must not get every one under that id, so
   * they pull the tenant-wide documents only.
   */
  tenantWideOnlyWithoutRepresentative?: boolean;
}

/** A collection, built either by its domain in TypeScript (load) or in SQL (sql). */
export type CollectionDefinition<C extends SyncServedCollection = SyncServedCollection> = Definition<C> &
  ({ load: DocumentLoader; sql?: never } | { sql: SqlDocuments<C>; load?: never });
