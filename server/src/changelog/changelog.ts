// The replication change log (app.sync_alteracoes, docs/sync.md). ERP rows carry no reliable
// change timestamps, so a refresh builds every document of a collection in SQL, hashes its
// JSON text and compares it with the hash kept per key: new or changed keys take a new
// revision, keys gone from the ERP become tombstones with a new revision (once). Everything is
// set-based, a few statements per collection whatever the tenant's size.
//
// Two kinds of collection (collection.ts). The ERP-derived catalog and portfolio (produtos,
// clientes) are built in SQL by their domain's builder, one for the refresh (hash) and for the
// pull (the current JSON of the changed keys), so both always agree. The others are built by
// their domain in TypeScript from bulk reads; their refresh compares hashes in TypeScript, and
// the writes of their domain touch their keys in the writing transaction, so a device hears of
// an order, a funnel card or a ticket message as soon as it commits. The log knows no domain:
// each hands it its builder.
//
// Every revision records its writing transaction (xid, migration 0009): see the pull.
import { createHash } from 'node:crypto';
import type { SyncRefreshCounts, SyncServedCollection } from '@campo/shared';
import { type RawBuilder, sql } from 'kysely';
import { type DrawnNumber, splicedBytes, splicedText } from '../db/drawn.ts';
import { PREPARED } from '../db/prepared.ts';
import type { Tx } from '../db/scope.ts';
import type { CollectionDefinition, DocumentLoader, SqlDocuments, SyncDoc } from './collection.ts';
import { announceChange, changeNotice, SYNC_CHANNEL } from './notices.ts';

/**
 * Brings one collection's change log of the tenant up to date with its source, as its
 * definition builds it: in SQL, or by its domain's loader, after what the domain reconciles
 * first (beforeRefresh).
 */
export async function refreshCollectionLog(
  tx: Tx,
  idEmpresa: number,
  definition: CollectionDefinition,
): Promise<SyncRefreshCounts> {
  await definition.beforeRefresh?.(tx, idEmpresa);
  return definition.sql
    ? refreshSqlCollection(tx, idEmpresa, definition.sql)
    : refreshLoadedCollection(tx, idEmpresa, definition.name, definition.load);
}

/** The document id of a key: the part before '@' (products have none). */
export const idOfKey = (chave: string): number => Number(chave.split('@')[0]);

/**
 * Brings the change log of one collection of the tenant up to date with the ERP. Must run in
 * a tenant-wide scope (no representative): the documents of every portfolio are built.
 *
 * Refreshes of one tenant are serialised by an advisory lock, so revisions of a tenant commit
 * in order and a pull that saw revision N never misses a lower one committed later.
 * Tombstones are written before the new keys, so a client moved between portfolios reaches a
 * tenant-wide reader as a deletion followed by the new document, never the other way round.
 * Records the collection as built (markBuilt).
 */
async function refreshSqlCollection(tx: Tx, idEmpresa: number, source: SqlDocuments): Promise<SyncRefreshCounts> {
  const { colecao } = source;
  await lockCollection(tx, idEmpresa, colecao, 'exclusive');
  const gone = await sql<{ deleted: number }>`
    with atuais as materialized (${source.keys(idEmpresa)}),
    marcadas as (
      update app.sync_alteracoes a
         set excluido = true, revisao = nextval('app.sync_revisao'), xid = txid_current(), atualizado_em = now()
       where a.id_empresa = ${idEmpresa} and a.colecao = ${colecao} and not a.excluido
         and not exists (select 1 from atuais t where t.chave = a.chave)
      returning 1)
    select count(*)::integer as deleted from marcadas`.execute(tx);
  const changed = await upsertSqlDocuments(tx, idEmpresa, source, null);
  const counts = { ...changed, deleted: gone.rows[0]?.deleted ?? 0 };
  await markBuilt(tx, idEmpresa, colecao);
  // Heard by the devices' change streams when the refresh commits.
  if (counts.inserted + counts.updated + counts.deleted > 0) {
    await announceChange(tx, { idEmpresa, colecao, codVendedor: null });
  }
  return counts;
}

/**
 * The statement every writer of the change log shares: a new revision (with its writing
 * transaction) for each row of `source` (chave, escopo, documento, hash, dados) whose key is
 * new, was deleted, or whose hash or scope changed; returns `novo` (inserted rather than
 * updated). A row written before the log kept documents (dados null) is rewritten once.
 *
 * Two shapes of the same rule. A refresh (`bulk`) compares a whole collection: one join
 * filters the unchanged documents before any row is written. A touch (an order, a card)
 * writes one or two documents inside a transaction that plans generically: the conflict on
 * the key finds the logged row through the primary key whatever the statistics say (a
 * generic plan of the join scanned the tenant's whole collection per order, 4–7 ms of CPU
 * growing with the orders), and its WHERE leaves an unchanged document alone.
 */
function upsertRevisions(idEmpresa: number, colecao: SyncServedCollection, source: RawBuilder<unknown>, bulk: boolean) {
  const changed = (a: string, d: string) =>
    sql.raw(
      `${a}.excluido or ${a}.hash <> ${d}.hash or ${a}.escopo is distinct from ${d}.escopo or ${a}.dados is null`,
    );
  const update = sql`
    on conflict (id_empresa, colecao, chave) do update
       set escopo = excluded.escopo, documento = excluded.documento, hash = excluded.hash,
           dados = excluded.dados, revisao = excluded.revisao, xid = excluded.xid, excluido = false,
           atualizado_em = now()`;
  return bulk
    ? sql`
    insert into app.sync_alteracoes (id_empresa, colecao, chave, escopo, documento, hash, dados, revisao, xid, excluido)
    select ${idEmpresa}, ${colecao}, d.chave, d.escopo, d.documento, d.hash, d.dados, nextval('app.sync_revisao'),
           txid_current(), false
      from ${source} d
      left join app.sync_alteracoes a
             on a.id_empresa = ${idEmpresa} and a.colecao = ${colecao} and a.chave = d.chave
     where a.chave is null or ${changed('a', 'd')}
    ${update}
    returning (xmax = 0) as novo`
    : sql`
    insert into app.sync_alteracoes as a (id_empresa, colecao, chave, escopo, documento, hash, dados, revisao, xid,
                                          excluido)
    select ${idEmpresa}, ${colecao}, d.chave, d.escopo, d.documento, d.hash, d.dados, nextval('app.sync_revisao'),
           txid_current(), false
      from ${source} d
    ${update}
     where ${changed('a', 'excluded')}
    returning (xmax = 0) as novo`;
}

/**
 * The documents of an SQL-built collection as the change log stores them (chave, escopo, documento, hash,
 * dados). `offset 0` keeps PostgreSQL from merging the inner query into this one, which would
 * put the document's whole expression in both the hash and the text, and build every document
 * twice (its subqueries too: a client's last order dates and payment terms).
 */
export function storedDocuments(source: SqlDocuments, idEmpresa: number, ids: number[] | null) {
  return sql`select d.chave, d.escopo, d.documento, md5(d.dados) as hash, d.dados
      from (select x.chave, x.escopo, x.documento, x.doc::text as dados
              from (${source.documents(idEmpresa, ids)}) x
            offset 0) d`;
}

/** Builds the documents (all, or those of the ids), and writes a revision for each new or changed one. */
async function upsertSqlDocuments(tx: Tx, idEmpresa: number, source: SqlDocuments, ids: number[] | null) {
  const changed = await sql<{ inserted: number; updated: number }>`
    with docs as materialized (${storedDocuments(source, idEmpresa, ids)}),
    gravadas as (${upsertRevisions(idEmpresa, source.colecao, sql.raw('docs'), true)})
    select (count(*) filter (where novo))::integer as inserted,
           (count(*) filter (where not novo))::integer as updated
      from gravadas`.execute(tx);
  return { inserted: changed.rows[0]?.inserted ?? 0, updated: changed.rows[0]?.updated ?? 0 };
}

/**
 * Records, in the writing transaction, the current documents of a few ids of a SQL-built
 * collection (a client just registered through Campo), with the same hash as a refresh.
 */
export async function touchSqlDocuments(
  tx: Tx,
  idEmpresa: number,
  source: SqlDocuments,
  codVendedor: number | null,
  ids: number[],
): Promise<void> {
  const { colecao } = source;
  // Never in the statement that builds the documents: its snapshot must not predate a
  // refresh it would wait for.
  await lockCollection(tx, idEmpresa, colecao, 'shared');
  // Prepared (a fixed text for the ids as one array): planning the portfolio view cost more
  // than building the few documents.
  await sql`${sql.raw(PREPARED)}
    with gravadas as (${upsertRevisions(idEmpresa, colecao, sql`(${storedDocuments(source, idEmpresa, ids)})`, false)})
    select case when exists (select 1 from gravadas)
                then pg_notify(${SYNC_CHANNEL}, ${changeNotice({ idEmpresa, colecao, codVendedor })}) end`.execute(tx);
}

/**
 * touchDocuments' write of one document built in TypeScript, as a CTE of another statement
 * (the order's), with a number the statement draws in place of `drawn`'s placeholder (the
 * order's own number): the same text and hash as the document written with the number in it.
 */
export function drawnDocumentWrite(idEmpresa: number, colecao: SyncServedCollection, doc: SyncDoc, drawn: DrawnNumber) {
  const json = JSON.stringify(doc.doc);
  return upsertRevisions(
    idEmpresa,
    colecao,
    sql`(select ${doc.chave}::text as chave, ${doc.escopo}::integer as escopo, ${doc.documento}::text as documento,
                md5(${splicedBytes(json, drawn)}) as hash, ${splicedText(asciiJson(json), drawn)} as dados)`,
    false,
  );
}

/** The documents as rows (chave, escopo, documento, hash, dados): a FROM item named t. */
function unnestDocs(docs: readonly SyncDoc[]) {
  // Each document serialised once, for its hash and its stored text.
  const json = docs.map((d) => JSON.stringify(d.doc));
  return sql`unnest(${docs.map((d) => d.chave)}::text[], ${docs.map((d) => d.escopo)}::integer[],
                    ${docs.map((d) => d.documento)}::text[], ${json.map(md5Hex)}::text[],
                    ${json.map(asciiJson)}::text[])
               as t(chave, escopo, documento, hash, dados)`;
}

/** The advisory lock key of a collection's refreshes (lockCollection), for callers that take it in their own statement. */
export const collectionLockKey = (colecao: SyncServedCollection) => `campo.sync:${colecao}`;

/**
 * Refreshes of one collection of a tenant are serialised by an exclusive advisory lock, and
 * the writes that touch it (an order, a funnel card) take it shared: they never wait for each
 * other, and a refresh sees every touch committed before it builds the documents, so it can
 * never mistake a document written meanwhile for one gone from the source.
 */
export async function lockCollection(
  tx: Tx,
  idEmpresa: number,
  colecao: SyncServedCollection,
  mode: 'shared' | 'exclusive',
): Promise<void> {
  const key = collectionLockKey(colecao);
  await (mode === 'shared'
    ? sql`select pg_advisory_xact_lock_shared(hashtext(${key}), ${idEmpresa})`
    : sql`select pg_advisory_xact_lock(hashtext(${key}), ${idEmpresa})`
  ).execute(tx);
}

/** A document's hash: md5 of its JSON's UTF-8 bytes (drawnDocumentWrite computes the same in SQL). */
const md5Hex = (json: string) => createHash('md5').update(json).digest('hex');

/**
 * The document's JSON with every non-ASCII character escaped (\uXXXX): what a representative
 * typed (emoji included) fits a LATIN1 database as it is, and JSON.parse gives it back.
 */
export const storedJson = (doc: unknown): string => asciiJson(JSON.stringify(doc));

const asciiJson = (json: string) =>
  json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Writes new revisions for the documents whose hash changed, and tombstones for the keys
 * given as gone. Returns how many keys were new and changed. Set-based: one statement each.
 */
async function writeRevisions(
  tx: Tx,
  idEmpresa: number,
  colecao: SyncServedCollection,
  docs: readonly SyncDoc[],
  gone: readonly string[],
  /** A refresh's whole collection, rather than a touch's few documents (upsertRevisions). */
  bulk: boolean,
): Promise<SyncRefreshCounts> {
  let deleted = 0;
  if (gone.length > 0) {
    const r = await sql<{ n: number }>`
      with marcadas as (
        update app.sync_alteracoes
           set excluido = true, revisao = nextval('app.sync_revisao'), xid = txid_current(), atualizado_em = now()
         where id_empresa = ${idEmpresa} and colecao = ${colecao} and not excluido
           and chave = any(${[...gone]}::text[])
        returning 1)
      select count(*)::integer as n from marcadas`.execute(tx);
    deleted = r.rows[0]?.n ?? 0;
  }
  let inserted = 0;
  let updated = 0;
  if (docs.length > 0) {
    const r = await sql<{ inserted: number; updated: number }>`
      with novos as (select * from ${unnestDocs(docs)}),
      gravadas as (${upsertRevisions(idEmpresa, colecao, sql.raw('novos'), bulk)})
      select (count(*) filter (where novo))::integer as inserted,
             (count(*) filter (where not novo))::integer as updated
        from gravadas`.execute(tx);
    inserted = r.rows[0]?.inserted ?? 0;
    updated = r.rows[0]?.updated ?? 0;
  }
  return { inserted, updated, deleted };
}

/**
 * Brings the change log of a TypeScript-built collection up to date: every document of the
 * tenant is built by its domain's loader, compared by hash, and keys no longer built become
 * tombstones. Records the collection as built (markBuilt).
 */
async function refreshLoadedCollection(
  tx: Tx,
  idEmpresa: number,
  colecao: SyncServedCollection,
  load: DocumentLoader,
): Promise<SyncRefreshCounts> {
  await lockCollection(tx, idEmpresa, colecao, 'exclusive');
  const docs = await load(tx, idEmpresa, null);
  const current = new Set(docs.map((d) => d.chave));
  const logged = await tx
    .selectFrom('app.sync_alteracoes')
    .select('chave')
    .where('id_empresa', '=', idEmpresa)
    .where('colecao', '=', colecao)
    .where('excluido', '=', false)
    .execute();
  const gone = logged.map((r) => r.chave).filter((k) => !current.has(k));
  const counts = await writeRevisions(tx, idEmpresa, colecao, docs, gone, true);
  await markBuilt(tx, idEmpresa, colecao);
  if (counts.inserted + counts.updated + counts.deleted > 0) {
    await announceChange(tx, { idEmpresa, colecao, codVendedor: null });
  }
  return counts;
}

/**
 * Records, in the writing transaction, the new state of documents a domain just changed (and
 * the keys it deleted), and tells the devices of their representative. Cheap: the documents
 * are what the domain already built for its answer.
 */
export async function touchDocuments(
  tx: Tx,
  idEmpresa: number,
  colecao: SyncServedCollection,
  codVendedor: number | null,
  docs: readonly SyncDoc[],
  gone: readonly string[] = [],
): Promise<void> {
  if (gone.length > 0) {
    await lockCollection(tx, idEmpresa, colecao, 'shared');
    const counts = await writeRevisions(tx, idEmpresa, colecao, docs, gone, false);
    if (counts.inserted + counts.updated + counts.deleted > 0) {
      await announceChange(tx, { idEmpresa, colecao, codVendedor });
    }
    return;
  }
  if (docs.length === 0) return;
  // The common case (an order, a card, a ticket) in one statement, on the path of every write:
  // the shared lock, the new revisions, and the announcement when anything changed. Taking the
  // lock inside the statement is enough here: it only has to keep a refresh from running
  // alongside, and a refresh takes its own snapshot after the lock it waits on.
  await sql`${sql.raw(PREPARED)}
    with trava as materialized (
      select pg_advisory_xact_lock_shared(hashtext(${collectionLockKey(colecao)}), ${idEmpresa}) as ok
    ),
    gravadas as (${upsertRevisions(idEmpresa, colecao, sql`(select t.* from trava, ${unnestDocs(docs)})`, false)})
    select case when exists (select 1 from gravadas)
                then pg_notify(${SYNC_CHANNEL}, ${changeNotice({ idEmpresa, colecao, codVendedor })}) end`.execute(tx);
}

/**
 * Records that the tenant's collection has been built whole (app.sync_construidas, migration
 * 0015), in the transaction of the full refresh that built it. The first pull of a collection
 * builds it when this was never recorded: rows in the log are no proof, since a write before
 * any build (an order logs its client into clientes) leaves one or two there.
 */
async function markBuilt(tx: Tx, idEmpresa: number, colecao: SyncServedCollection): Promise<void> {
  await sql`insert into app.sync_construidas (id_empresa, colecao) values (${idEmpresa}, ${colecao})
            on conflict do nothing`.execute(tx);
}

/** Whether a full refresh has built the tenant's collection (markBuilt). */
export async function isBuilt(tx: Tx, idEmpresa: number, colecao: SyncServedCollection): Promise<boolean> {
  const row = await tx
    .selectFrom('app.sync_construidas')
    .select('colecao')
    .where('id_empresa', '=', idEmpresa)
    .where('colecao', '=', colecao)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Serialises the first builds of one collection of a tenant: devices starting at once wait for
 * the first one's build and then find it recorded, rather than each building it again. A lock
 * of its own: taking the refresh's exclusive lock before the orders' reconciliation would
 * reverse the order in which an order's decision takes its row and the shared lock.
 */
export async function lockFirstBuild(tx: Tx, idEmpresa: number, colecao: SyncServedCollection): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${firstBuildLockKey(colecao)}), ${idEmpresa})`.execute(tx);
}

/** The advisory lock key of a collection's first builds (lockFirstBuild). */
export const firstBuildLockKey = (colecao: SyncServedCollection) => `campo.sync.build:${colecao}`;
