// The sync banner's words and the overall state the UI reads, and the event-stream parser the
// replication listens with.
import { describe, expect, it } from 'vitest';
import { readEvents } from './change-stream.ts';
import { createSyncState, describeSyncError, SyncHttpError } from './sync-state.ts';

describe('sync errors in plain words', () => {
  it('names what the representative can act on', () => {
    expect(describeSyncError(new TypeError('fetch failed'))).toMatchObject({
      kind: 'offline',
      message: 'Sem conexão com o servidor.',
    });
    expect(describeSyncError(new SyncHttpError(401, 'UNAUTHORIZED', ''))).toMatchObject({
      kind: 'unauthorized',
      message: 'Sessão expirada. Entre novamente.',
    });
    expect(describeSyncError(new SyncHttpError(503, undefined, '')).kind).toBe('server');
    expect(describeSyncError(new SyncHttpError(409, 'IDEMPOTENCY_IN_FLIGHT', '')).kind).toBe('busy');
    expect(describeSyncError(new SyncHttpError(426, 'SYNC_VERSION_UNSUPPORTED', '', 3))).toMatchObject({
      kind: 'update',
      message: 'Atualize o app para continuar sincronizando.',
    });
    // Newer than the server: a rolling deploy; retried, not an update.
    expect(describeSyncError(new SyncHttpError(400, 'SYNC_VERSION_UNSUPPORTED', ''))).toMatchObject({
      kind: 'server',
      message: 'O servidor está sendo atualizado; tentaremos de novo em instantes.',
    });
  });
});

describe('sync state', () => {
  it('counts the first download per collection and keeps the worst error on top', () => {
    const times = ['2026-01-01T10:00:00.000Z', '2026-01-01T10:00:05.000Z'];
    const store = createSyncState(['produtos', 'clientes'], () => new Date(times.shift() ?? 0));
    expect(store.get()).toMatchObject({ online: false, initial: { done: 0, total: 2, received: 0 }, error: null });

    store.success('produtos', { received: 500 });
    store.failure('clientes', new TypeError('fetch failed'));
    store.stream({ live: false, error: new SyncHttpError(401, undefined, '') });
    let s = store.get();
    expect(s.initial.received).toBe(500);
    expect(s.error?.kind).toBe('unauthorized');
    expect(s.online).toBe(false);

    store.stream({ live: true });
    store.success('clientes', { received: 40 });
    store.initialDone('produtos');
    store.initialDone('clientes');
    s = store.get();
    expect(s).toMatchObject({ online: true, live: true, error: null, initial: { done: 2, total: 2, received: 540 } });
    expect(s.lastSuccessAt).toBe('2026-01-01T10:00:05.000Z');
    expect(s.updateRequired).toBeNull();
  });

  it('says the app must be updated once the server refuses its version, above any other error', () => {
    const store = createSyncState(['produtos']);
    store.failure('produtos', new TypeError('fetch failed'));
    store.updateRequired(new SyncHttpError(426, 'SYNC_VERSION_UNSUPPORTED', '', 3));
    expect(store.get()).toMatchObject({
      online: true,
      live: false,
      updateRequired: { minVersion: 3 },
      error: { kind: 'update', message: 'Atualize o app para continuar sincronizando.' },
    });
  });
});

describe('event-stream parser', () => {
  const body = (chunks: string[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
        controller.close();
      },
    });

  it('reads events split anywhere across chunks, with CRLF, comments and multi-line data', async () => {
    const events: [string, string][] = [];
    await readEvents(
      body([
        'event: res',
        'ync\ndata: {}\n\n: comment\r',
        '\nevent: change\r\ndata: {"colecao"',
        ':"pedidos"}\r\n\r\n',
        'data: a\ndata: b\n\n',
      ]),
      (e, d) => events.push([e, d]),
    );
    expect(events).toEqual([
      ['resync', '{}'],
      ['change', '{"colecao":"pedidos"}'],
      ['message', 'a\nb'],
    ]);
  });
});
