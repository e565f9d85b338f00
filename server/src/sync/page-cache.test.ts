import { describe, expect, it } from 'vitest';
import { createPageCache, type PageKey } from './page-cache.ts';

const key = (over: Partial<PageKey> = {}): PageKey => ({
  idEmpresa: 1,
  colecao: 'produtos',
  codVendedor: 7,
  tenantWideOnly: false,
  after: { xid: 0, revisao: 0 },
  limit: 2,
  ...over,
});
const page = (text: string, full: boolean) => async () => ({ body: Buffer.from(text), full });

describe('page cache', () => {
  it('answers a full page again, for the same window only', async () => {
    const cache = createPageCache();
    let builds = 0;
    const build = async () => {
      builds++;
      return { body: Buffer.from('full'), full: true };
    };
    expect((await cache.through(key(), build)).toString()).toBe('full');
    expect(cache.get(key())?.toString()).toBe('full');
    expect((await cache.through(key(), build)).toString()).toBe('full');
    expect(builds).toBe(1);
    // Another representative, checkpoint, limit or tenant is another window.
    for (const other of [
      key({ codVendedor: 8 }),
      key({ codVendedor: null }),
      key({ after: { xid: 0, revisao: 1 } }),
      key({ limit: 3 }),
      key({ idEmpresa: 2 }),
      key({ colecao: 'clientes' }),
    ]) {
      expect(cache.get(other)).toBeUndefined();
    }
  });

  it('never keeps a short page: "up to date" holds only when it was read', async () => {
    const cache = createPageCache();
    await cache.through(key(), page('short', false));
    expect(cache.get(key())).toBeUndefined();
    expect((await cache.through(key(), page('later', false))).toString()).toBe('later');
  });

  it('builds a window once for requests that arrive together, and a short one for each', async () => {
    const cache = createPageCache();
    let builds = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slow = (full: boolean) => async () => {
      builds++;
      await gate;
      return { body: Buffer.from(`page ${builds}`), full };
    };
    const together = [cache.through(key(), slow(true)), cache.through(key(), slow(true))];
    release();
    const bodies = (await Promise.all(together)).map(String);
    expect(builds).toBe(1);
    expect(bodies).toEqual(['page 1', 'page 1']);

    const shortKey = key({ limit: 5 });
    const shorts = [cache.through(shortKey, slow(false)), cache.through(shortKey, slow(false))];
    expect((await Promise.all(shorts)).map(String)).toEqual(['page 2', 'page 3']);
  });

  it('drops the least recently used page past its bytes, and any page past its time', async () => {
    let now = 1_000_000;
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const cache = createPageCache({ maxBytes: 10, ttlMs: 1000 });
      await cache.through(key({ limit: 1 }), page('aaaa', true));
      await cache.through(key({ limit: 2 }), page('bbbb', true));
      expect(cache.get(key({ limit: 1 }))?.toString()).toBe('aaaa'); // now the most recent
      await cache.through(key({ limit: 3 }), page('cccc', true));
      expect(cache.get(key({ limit: 2 }))).toBeUndefined();
      expect(cache.get(key({ limit: 1 }))?.toString()).toBe('aaaa');
      expect(cache.stats().bytes).toBe(8);
      now += 1001;
      expect(cache.get(key({ limit: 1 }))).toBeUndefined();
      await cache.through(key({ limit: 4 }), page('x'.repeat(11), true));
      expect(cache.get(key({ limit: 4 }))).toBeUndefined();
    } finally {
      Date.now = realNow;
    }
  });
});
