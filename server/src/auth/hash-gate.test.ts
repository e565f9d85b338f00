import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { createHashGate } from './hash-gate.ts';

/** A task the test finishes when it wants, so nothing depends on timing. */
function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('hash gate', () => {
  it('runs at most `concurrency` tasks; the next waits for a slot and then runs', async () => {
    const gate = createHashGate({ concurrency: 2, maxWaitMs: 60_000 });
    const tasks = [deferred(), deferred(), deferred()];
    let started = 0;
    const runs = tasks.map((t) =>
      gate.run(async () => {
        started++;
        await t.promise;
      }),
    );
    await Promise.resolve();
    expect(gate.active).toBe(2);
    expect(gate.waiting).toBe(1);
    expect(started).toBe(2);
    tasks[0]?.resolve();
    await runs[0];
    await new Promise(setImmediate);
    expect(started).toBe(3);
    expect(gate.active).toBe(2);
    tasks[1]?.resolve();
    tasks[2]?.resolve();
    await Promise.all(runs);
    expect(gate.active).toBe(0);
  });

  it('refuses with 503 LOGIN_BUSY a task that waited too long or found the queue full, without running it', async () => {
    const gate = createHashGate({ concurrency: 1, maxWaitMs: 20, maxQueue: 1 });
    const hold = deferred();
    const first = gate.run(() => hold.promise);
    let ran = false;
    const late = gate.run(async () => {
      ran = true;
    });
    const overflow = gate.run(async () => {
      ran = true;
    });
    await expect(overflow).rejects.toMatchObject({ status: 503, code: 'LOGIN_BUSY' });
    const err = await late.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).extra.retryAfterSeconds).toBe(1);
    expect(ran).toBe(false);
    expect(gate.waiting).toBe(0);
    hold.resolve();
    await first;
    expect(gate.active).toBe(0);
  });
});
