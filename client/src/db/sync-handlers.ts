// RxDB's pull and push handlers over the sync routes, with what the screens and the watchdog
// follow of them: the documents a push carries (in flight, unsent) and the tries per item
// (sync-health.ts). A push is only taken as done when the server answered it.
import type { SyncCollection, SyncPull, SyncWritableCollection } from '@campo/shared';
import { BehaviorSubject } from 'rxjs';
import { type CampoDocTypes, clientSearchKey, INDEX_DEFAULTS, productSearchKey } from './schemas.ts';
import type { SyncHealthStore } from './sync-health.ts';
import { httpError, type SyncHttp } from './sync-http.ts';
import { SyncStalledError, type SyncStateStore } from './sync-state.ts';
import type { VisitPhotoStore } from './visit-photos.ts';

/**
 * RxDB merges checkpoints with Object.assign, which would spread a bare string into its
 * characters: the server's opaque string travels inside an object.
 */
export interface PullCheckpoint {
  checkpoint: string;
}

/** Outbox collections whose documents the screens show as "sent" while a push carries them. */
const TRACKED = new Set<SyncCollection>(['pedidos', 'cadastros']);

const RESET_CODES = new Set(['CHECKPOINT_SCOPE', 'CHECKPOINT_INVALID']);

/**
 * Fields the device adds to what it pulls: the search keys, and the indexed fields a tombstone
 * lacks (Dexie cannot store a document without its indexed fields).
 */
export function localFields(
  collection: SyncCollection,
): ((doc: Record<string, unknown>) => Record<string, unknown>) | undefined {
  const defaults = INDEX_DEFAULTS[collection];
  if (!defaults) return undefined;
  const derive =
    collection === 'produtos'
      ? (doc: Record<string, unknown>) => {
          const p = doc as unknown as CampoDocTypes['produtos'];
          return { busca: productSearchKey(p), grupoCodigo: p.grupo ?? -1 };
        }
      : collection === 'clientes'
        ? (doc: Record<string, unknown>) => ({ busca: clientSearchKey(doc as unknown as CampoDocTypes['clientes']) })
        : () => ({});
  return (doc) => (doc._deleted ? { ...defaults, ...doc } : { ...doc, ...derive(doc) });
}

export interface SyncHandlersHost {
  http: SyncHttp;
  syncState: SyncStateStore;
  health: SyncHealthStore;
  /** The visits' photos waiting on the phone, sent before their visits' push. */
  visitPhotos?: VisitPhotoStore | undefined;
}

/**
 * Answers to a photo the server will never take (not an image, too large, unreadable): sending
 * it again cannot help, and holding the visit back for it would hold it forever. The photo is
 * dropped and the visit pushed; a reason that needs a photo then refuses its check-out
 * (VISIT_PHOTO_REQUIRED), and the representative takes another one.
 */
const PHOTO_REFUSED = new Set([413, 415, 422]);

export function createSyncHandlers({ http, syncState, health, visitPhotos }: SyncHandlersHost) {
  /** Per collection, aborts the push under way when the collection is restarted. */
  const pushAborts = new Map<SyncCollection, AbortController>();
  const pushSignal = (collection: SyncCollection) => {
    let controller = pushAborts.get(collection);
    if (!controller) {
      controller = new AbortController();
      pushAborts.set(collection, controller);
    }
    return controller.signal;
  };
  const inFlight = new BehaviorSubject<ReadonlySet<string>>(new Set());
  const unsent = new BehaviorSubject<Partial<Record<SyncWritableCollection, ReadonlySet<string>>>>({});
  const markUnsent = (collection: SyncWritableCollection, ids: readonly string[], waiting: boolean) => {
    const set = new Set(unsent.getValue()[collection]);
    for (const id of ids) {
      if (waiting) set.add(id);
      else set.delete(id);
    }
    unsent.next({ ...unsent.getValue(), [collection]: set });
  };

  const pull = (collection: SyncCollection) => async (stored: PullCheckpoint | undefined, batchSize: number) => {
    const checkpoint = stored?.checkpoint;
    try {
      let res = await http.pullInTurn(collection, checkpoint, batchSize);
      if (res.status === 400 && checkpoint) {
        const err = await httpError(res);
        if (!err.code || !RESET_CODES.has(err.code)) throw err;
        // A checkpoint of another scope would skip documents: start over from the beginning.
        res = await http.pullInTurn(collection, undefined, batchSize);
      }
      if (!res.ok) throw await httpError(res);
      const body = (await res.json()) as SyncPull;
      syncState.success(collection, { received: body.documents.length });
      // RxDB pulls until a page comes back short: this one reached the server's state.
      if (body.documents.length < batchSize) health.pullComplete(collection);
      return { documents: body.documents as never[], checkpoint: { checkpoint: body.checkpoint } };
    } catch (err) {
      syncState.failure(collection, err);
      throw err;
    }
  };

  /**
   * Each pushed visit's photo first (PUT /visits/{id}/photo, kept under the visit id on the
   * server even before the visit exists): a failure throws, and RxDB retries the whole push
   * later, photo first again, so the visit never reaches the server without the photo it holds.
   */
  const sendVisitPhotos = async (rows: unknown[], signal: AbortSignal) => {
    if (!visitPhotos) return;
    for (const r of rows) {
      const doc = (r as { newDocumentState: { id: string; _deleted?: boolean } }).newDocumentState;
      if (doc._deleted) continue;
      const photo = await visitPhotos.get(doc.id);
      if (!photo) continue;
      const res = await http.request(
        `/visits/${encodeURIComponent(doc.id)}/photo`,
        { method: 'PUT', signal, headers: { 'content-type': photo.type || 'application/octet-stream' }, body: photo },
        '/api/v1',
      );
      if (!res.ok && !PHOTO_REFUSED.has(res.status)) throw await httpError(res);
      await visitPhotos.delete(doc.id);
    }
  };

  const push = (collection: SyncWritableCollection) => async (rows: unknown[]) => {
    const rowIds = rows.map((r) => (r as { newDocumentState: { id: string } }).newDocumentState.id);
    const ids = TRACKED.has(collection) ? rowIds : [];
    if (ids.length) inFlight.next(new Set([...inFlight.getValue(), ...ids]));
    // Waiting until the server answers; a failure leaves them waiting for RxDB's retry.
    markUnsent(collection, rowIds, true);
    health.pushStarted(collection, rowIds);
    const signal = pushSignal(collection);
    try {
      if (collection === 'visitas') await sendVisitPhotos(rows, signal);
      const res = await http.request(`/${collection}/push`, {
        method: 'POST',
        signal,
        headers: { 'content-type': 'application/json' },
        // RxDB leaves assumedMasterState undefined for a new document; the contract says null.
        body: JSON.stringify(
          rows.map((r) => {
            const row = r as { assumedMasterState?: unknown; newDocumentState: unknown };
            return { assumedMasterState: row.assumedMasterState ?? null, newDocumentState: row.newDocumentState };
          }),
        ),
      });
      // 409 (the same order still in flight on the server), 5xx and anything unexpected are
      // retried as a whole: the server is idempotent by document id, so a repeat is harmless.
      if (!res.ok) throw await httpError(res);
      const conflicts = (await res.json()) as never[];
      syncState.success(collection, { sent: rows.length });
      markUnsent(collection, rowIds, false);
      health.pushAnswered(collection, rowIds);
      return conflicts;
    } catch (err) {
      if (signal.aborted) {
        // Restarted (the watchdog, or "Sincronizar agora"): the new replication pushes again.
        health.pushFailed(collection, rowIds, new SyncStalledError());
      } else {
        syncState.failure(collection, err);
        health.pushFailed(collection, rowIds, err);
      }
      throw err;
    } finally {
      if (ids.length) {
        const left = new Set(inFlight.getValue());
        for (const id of ids) left.delete(id);
        inFlight.next(left);
      }
    }
  };

  /** Aborts the collection's push under way; the next push gets a fresh signal. */
  const abortPush = (collection: SyncCollection) => {
    pushAborts.get(collection)?.abort();
    pushAborts.delete(collection);
  };

  return { pull, push, abortPush, inFlight$: inFlight.asObservable(), unsent$: unsent.asObservable() };
}
