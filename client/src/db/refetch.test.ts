// Which stored checkpoints make a collection be pulled again from the beginning after an upgrade
// (refetch.ts); the pull itself, against a server, is test/replication/versions.pg.test.ts.
import { SYNC_COLLECTIONS } from '@campo/shared';
import { describe, expect, it } from 'vitest';
import { mustRefetch, refetchingPull, type StoreCheckpoint } from './refetch.ts';
import { REFETCH_SINCE, STORE_VERSION } from './schemas.ts';

describe('refetch after an upgrade', () => {
  it('names a version no later than the current store for every collection it lists', () => {
    for (const [c, since] of Object.entries(REFETCH_SINCE)) {
      expect(SYNC_COLLECTIONS, c).toContain(c);
      expect(since, c).toBeGreaterThan(0);
      expect(since, c).toBeLessThanOrEqual(STORE_VERSION);
    }
  });

  it('pulls again a collection whose checkpoint a store older than its server fields reached', () => {
    expect(mustRefetch('produtos', { checkpoint: 'x' })).toBe(true);
    expect(mustRefetch('produtos', { checkpoint: 'x', store: 1 })).toBe(true);
    expect(mustRefetch('produtos', { checkpoint: 'x', store: 2 })).toBe(false);
    expect(mustRefetch('produtos', { checkpoint: 'x', store: STORE_VERSION })).toBe(false);
    expect(mustRefetch('funil', { checkpoint: 'x', store: 0 })).toBe(true);
    expect(mustRefetch('funil', { checkpoint: 'x', store: 1 })).toBe(false);
    // Nothing stored: the pull starts from the beginning anyway.
    expect(mustRefetch('clientes', undefined)).toBe(false);
    // Version 5 (issue #41): the orders' invoices, inside the order.
    expect(mustRefetch('pedidos', { checkpoint: 'x', store: 4 })).toBe(true);
    expect(mustRefetch('pedidos', { checkpoint: 'x', store: 5 })).toBe(false);
    // Version 6 (issue #41): the clients' mix.
    expect(mustRefetch('clientes', { checkpoint: 'x', store: 5 })).toBe(true);
    // Version 7 (issue #42): the clients' visit days and position.
    expect(mustRefetch('clientes', { checkpoint: 'x', store: 6 })).toBe(true);
    expect(mustRefetch('clientes', { checkpoint: 'x', store: 7 })).toBe(false);
    // A collection new in 7 has no checkpoint of an older store to distrust.
    expect(mustRefetch('visitas', { checkpoint: 'x', store: 6 })).toBe(false);
    // Collections that never gained a server field are never pulled again.
    expect(mustRefetch('cadastros', { checkpoint: 'x' })).toBe(false);
  });

  it('starts the pull over once and stamps every checkpoint it hands RxDB', async () => {
    const asked: (StoreCheckpoint | undefined)[] = [];
    const clientes = { name: 'clientes', schema: { version: STORE_VERSION } };
    const handler = refetchingPull<StoreCheckpoint>(clientes, async (stored) => {
      asked.push(stored);
      return { documents: [], checkpoint: { checkpoint: `after-${stored?.checkpoint ?? 'start'}` } };
    });
    const first = await handler({ checkpoint: 'old' }, 10);
    expect(first.checkpoint).toEqual({ checkpoint: 'after-start', store: STORE_VERSION });
    const second = await handler(first.checkpoint, 10);
    expect(second.checkpoint).toEqual({ checkpoint: 'after-after-start', store: STORE_VERSION });
    expect(asked).toEqual([undefined, { checkpoint: 'after-start', store: STORE_VERSION }]);
  });
});
