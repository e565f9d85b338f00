// The sync screen's bookkeeping (tries, last error, last complete pull) and the watchdog's
// decision, without a store or a server.
import { describe, expect, it } from 'vitest';
import { createSyncHealth, parseSavedHealth, type SavedHealth, stalledCollections } from './sync-health.ts';
import { SyncHttpError, SyncStalledError } from './sync-state.ts';

function clock(start = '2026-03-02T10:00:00.000Z') {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

describe('sync health', () => {
  it('counts the tries of an item, keeps its first try and last error, and forgets it once answered', () => {
    const c = clock();
    const saved: SavedHealth[] = [];
    const h = createSyncHealth({ now: c.now, persist: { load: () => undefined, save: (s) => saved.push(s) } });
    h.pushStarted('pedidos', ['a', 'b']);
    c.advance(5000);
    h.pushFailed('pedidos', ['a', 'b'], new TypeError('Failed to fetch'));
    c.advance(5000);
    h.pushStarted('pedidos', ['a']);
    h.pushFailed('pedidos', ['a'], new SyncHttpError(503, 'SERVICE_UNAVAILABLE', ''));
    const a = h.get().items['pedidos:a'];
    expect(a).toMatchObject({
      firstAttemptAt: '2026-03-02T10:00:00.000Z',
      lastAttemptAt: '2026-03-02T10:00:10.000Z',
      tries: 2,
      lastError: { kind: 'server', status: 503 },
    });
    expect(h.get().items['pedidos:b']).toMatchObject({ tries: 1, lastError: { kind: 'offline' } });
    h.pushAnswered('pedidos', ['a']);
    expect(Object.keys(h.get().items)).toEqual(['pedidos:b']);
    expect(saved.at(-1)?.items).toEqual(h.get().items);
  });

  it('names a push cut by a restart as such', () => {
    const h = createSyncHealth();
    h.pushStarted('funil', ['x']);
    h.pushFailed('funil', ['x'], new SyncStalledError());
    expect(h.get().items['funil:x']?.lastError?.message).toBe('O envio ficou sem resposta e foi reiniciado.');
  });

  it('starts from what was saved, and ignores what has the wrong shape', () => {
    const saved = {
      items: {
        'pedidos:a': { firstAttemptAt: '2026-01-01T00:00:00Z', lastAttemptAt: '2026-01-01T00:01:00Z', tries: 3 },
        'pedidos:bad': { tries: 'x' },
      },
      pulls: { produtos: '2026-01-01T00:02:00Z', clientes: 7 },
    };
    const h = createSyncHealth({ persist: { load: () => saved, save: () => undefined } });
    expect(h.get().items).toEqual({
      'pedidos:a': {
        firstAttemptAt: '2026-01-01T00:00:00Z',
        lastAttemptAt: '2026-01-01T00:01:00Z',
        tries: 3,
        lastError: null,
      },
    });
    expect(h.get().pulls).toEqual({ produtos: '2026-01-01T00:02:00Z' });
    expect(parseSavedHealth('garbage')).toEqual({ items: {}, pulls: {} });
  });

  it('records the last complete pull per collection', () => {
    const c = clock();
    const h = createSyncHealth({ now: c.now });
    h.pullComplete('produtos');
    c.advance(60_000);
    h.pullComplete('clientes');
    expect(h.get().pulls).toEqual({ produtos: '2026-03-02T10:00:00.000Z', clientes: '2026-03-02T10:01:00.000Z' });
  });

  it('forgets a collection given up for room, so its screens say it downloads again, and saves that', () => {
    let saved: SavedHealth | undefined;
    const h = createSyncHealth({ persist: { load: () => undefined, save: (v) => (saved = v) } });
    h.pullComplete('produtos');
    h.pullComplete('clientes');
    h.pullForgotten('produtos');
    expect(Object.keys(h.get().pulls)).toEqual(['clientes']);
    expect(Object.keys(saved?.pulls ?? {})).toEqual(['clientes']);
  });
});

describe('the watchdog decision', () => {
  const started = '2026-03-02T09:00:00.000Z';
  const at = (iso: string) => new Date(iso);

  it('restarts a collection whose work waited past the threshold with no push since', () => {
    const c = clock('2026-03-02T10:00:00.000Z');
    const h = createSyncHealth({ now: c.now });
    h.pushStarted('pedidos', ['a']); // never ends: the request hangs
    const waiting = { pedidos: '2026-03-02T09:59:00.000Z' };
    expect(stalledCollections(h.get(), waiting, at('2026-03-02T10:00:20.000Z'), 30_000, started)).toEqual([]);
    expect(stalledCollections(h.get(), waiting, at('2026-03-02T10:00:31.000Z'), 30_000, started)).toEqual(['pedidos']);
  });

  it('leaves alone a push that keeps trying, work that just arrived, and collections with nothing waiting', () => {
    const c = clock('2026-03-02T10:00:00.000Z');
    const h = createSyncHealth({ now: c.now });
    h.pushStarted('pedidos', ['a']);
    h.pushFailed('pedidos', ['a'], new TypeError('Failed to fetch')); // RxDB retries in 5 s
    const now = at('2026-03-02T10:00:10.000Z');
    expect(stalledCollections(h.get(), { pedidos: '2026-03-02T09:00:00.000Z' }, now, 30_000, started)).toEqual([]);
    expect(stalledCollections(h.get(), { funil: '2026-03-02T10:00:05.000Z' }, now, 30_000, started)).toEqual([]);
    expect(stalledCollections(h.get(), {}, at('2026-03-03T10:00:00.000Z'), 30_000, started)).toEqual([]);
  });

  it('counts a collection never pushed from the replication start, and a restart as activity', () => {
    const c = clock('2026-03-02T10:00:00.000Z');
    const h = createSyncHealth({ now: c.now });
    const waiting = { cadastros: '2026-03-02T08:00:00.000Z' };
    expect(stalledCollections(h.get(), waiting, at('2026-03-02T09:00:20.000Z'), 30_000, started)).toEqual([]);
    expect(stalledCollections(h.get(), waiting, at('2026-03-02T09:00:40.000Z'), 30_000, started)).toEqual([
      'cadastros',
    ]);
    h.restarted('cadastros');
    expect(h.get().push.cadastros?.restarts).toBe(1);
    expect(stalledCollections(h.get(), waiting, at('2026-03-02T10:00:20.000Z'), 30_000, started)).toEqual([]);
  });
});
