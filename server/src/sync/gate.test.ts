import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { createSyncGate } from './gate.ts';

/** A pull the test finishes by hand; `started` resolves when the gate lets it run. */
function pullOf() {
  let finish: () => void = () => undefined;
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((r) => {
    markStarted = r;
  });
  const done = new Promise<void>((r) => {
    finish = r;
  });
  let running = false;
  const fn = async () => {
    running = true;
    markStarted();
    await done;
    return 'page';
  };
  return { fn, started, finish, isRunning: () => running };
}

describe('sync gate', () => {
  it('lets a bounded number of devices download and admits the others in the order they asked', async () => {
    const gate = createSyncGate({ maxDevices: 1, idleMs: 0 });
    const a = pullOf();
    const b = pullOf();
    const c = pullOf();
    const ra = gate.run(1, true, a.fn);
    await a.started;
    const rb = gate.run(2, true, b.fn);
    const rc = gate.run(3, true, c.fn);
    expect(gate.stats()).toEqual({ admitted: 1, waiting: 2 });
    // Device 1 keeps its place for its next page, ahead of the line.
    const a2 = pullOf();
    a.finish();
    await ra;
    const ra2 = gate.run(1, false, a2.fn);
    await a2.started;
    expect(b.isRunning()).toBe(false);
    a2.finish();
    await ra2;
    await b.started;
    expect(c.isRunning()).toBe(false);
    b.finish();
    await rb;
    await c.started;
    c.finish();
    await expect(rc).resolves.toBe('page');
  });

  it('never holds an incremental pull (with a checkpoint) of a device that is not downloading', async () => {
    const gate = createSyncGate({ maxDevices: 1, idleMs: 0 });
    const a = pullOf();
    const ra = gate.run(1, true, a.fn);
    await a.started;
    const b = pullOf();
    const rb = gate.run(2, false, b.fn);
    await b.started;
    b.finish();
    a.finish();
    await Promise.all([ra, rb]);
  });

  it('answers 503 SYNC_BUSY with a Retry-After past the wait bound, and the device keeps its place', async () => {
    const gate = createSyncGate({ maxDevices: 1, idleMs: 0, maxWaitMs: 5 });
    const a = pullOf();
    const ra = gate.run(1, true, a.fn);
    await a.started;
    const refused = await gate.run(2, true, async () => 'never').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).status).toBe(503);
    expect((refused as DomainError).code).toBe('SYNC_BUSY');
    expect((refused as DomainError).extra.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Device 3 asks after device 2's first try; device 2 comes back and still goes first.
    const slow = createSyncGate({ maxDevices: 1, idleMs: 0, maxWaitMs: 60_000 });
    const first = pullOf();
    const r1 = slow.run(1, true, first.fn);
    await first.started;
    const late = slow.run(2, true, async () => 'x').catch((e: unknown) => e);
    const third = pullOf();
    const r3 = slow.run(3, true, third.fn);
    const back = pullOf();
    const r2 = slow.run(2, true, back.fn);
    first.finish();
    await r1;
    await back.started;
    expect(third.isRunning()).toBe(false);
    back.finish();
    await Promise.all([r2, late]);
    await third.started;
    third.finish();
    await r3;
    a.finish();
    await ra;
  });
});
