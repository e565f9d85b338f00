import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';

describe('backoffDelay', () => {
  it('waits the first delay, then doubles per failure up to the cap', () => {
    expect([0, 1, 2, 3, 7, 8].map((n) => backoffDelay(n, 250, 30_000))).toEqual([250, 500, 1000, 2000, 30_000, 30_000]);
  });

  it('stays at the cap however long the outage', () => {
    expect(backoffDelay(10_000, 250, 30_000)).toBe(30_000);
    expect(backoffDelay(-1, 250, 30_000)).toBe(250);
  });
});
