// A full disk, without a browser: the QuotaExceededError in the shapes IndexedDB, Dexie and
// RxDB hand it over, and an outbox write that makes room and goes first.
import { describe, expect, it } from 'vitest';
import { isQuotaError, StorageFullError, writeFirst } from './storage-pressure.ts';

const quota = () => Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });

describe('a full disk', () => {
  it('is recognised however it is wrapped', () => {
    expect(isQuotaError(quota())).toBe(true);
    // Dexie: DexieError with the DOMException as inner.
    expect(isQuotaError({ name: 'AbortError', message: 'Transaction aborted', inner: quota() })).toBe(true);
    // RxDB's replication error: the handler's errors as plain JSON.
    expect(
      isQuotaError({ code: 'RC_PULL', parameters: { errors: [{ name: 'QuotaExceededError', message: 'x' }] } }),
    ).toBe(true);
    expect(isQuotaError(new TypeError('Failed to fetch'))).toBe(false);
    expect(isQuotaError({ parameters: { errors: [{ name: 'ConstraintError' }] } })).toBe(false);
    expect(isQuotaError(null)).toBe(false);
  });

  it('makes room and writes the outbox again, once', async () => {
    let tries = 0;
    let freed = 0;
    const id = await writeFirst(
      async () => {
        tries++;
        if (freed === 0) throw quota();
        return 'pedido-1';
      },
      async () => {
        freed++;
      },
    );
    expect([id, tries, freed]).toEqual(['pedido-1', 2, 1]);
    await expect(
      writeFirst(
        async () => {
          throw quota();
        },
        async () => undefined,
      ),
    ).rejects.toBeInstanceOf(StorageFullError);
    // Any other failure is not the disk's, and frees nothing.
    await expect(
      writeFirst(
        async () => {
          throw new Error('ConstraintError');
        },
        async () => {
          freed++;
        },
      ),
    ).rejects.toThrow('ConstraintError');
    expect(freed).toBe(1);
  });
});
