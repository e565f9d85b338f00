// Admission of initial syncs (docs/sync.md, "Morning burst"). When a hundred phones open the
// app at 8:00, serving them all at once makes every one of them wait for the slowest: each
// download competes with every other, memory grows with the pages in flight, and they all
// finish together at the end. The gate lets a bounded number of devices download at once and
// queues the rest in arrival order, so devices finish one after another.
//
// A device (a user: a representative's phones share their place) is admitted by its first pull
// without a checkpoint (the start of a collection) and keeps its place while it keeps pulling;
// it leaves once it has had no pull in flight for `idleMs`, and should it come back (its next
// collection) it goes in ahead of the devices that asked after it. Pulls with a checkpoint from a
// device not admitted (an ordinary incremental pull after a change) are never held. A device
// that waits longer than `maxWaitMs` gets 503 SYNC_BUSY with Retry-After and keeps its place in
// the line when it comes back: it is late, never refused.
import { DomainError } from '../errors.ts';

export interface SyncGateOptions {
  /** Devices downloading at once (default 16). */
  maxDevices?: number;
  /** Longest a pull waits for admission before 503 with Retry-After (default 20 s). */
  maxWaitMs?: number;
  /** A device with no pull for this long leaves its place (default 100 ms). */
  idleMs?: number;
  /** How long a device that left the line keeps its place for when it comes back (default 2 min). */
  rememberMs?: number;
}

interface Waiter {
  key: number;
  since: number;
  admit: () => void;
}

export interface SyncGate {
  /**
   * Runs `fn` once the device may pull: at once for an admitted device, or for a pull with a
   * checkpoint from a device that is not downloading; otherwise after its turn. Throws the 503
   * problem when the wait passes the bound.
   */
  run<T>(key: number, initial: boolean, fn: () => Promise<T>): Promise<T>;
  /** Devices admitted and waiting now (metrics, tests). */
  stats(): { admitted: number; waiting: number };
}

export function createSyncGate(options: SyncGateOptions = {}): SyncGate {
  const maxDevices = options.maxDevices ?? 16;
  const maxWaitMs = options.maxWaitMs ?? 20_000;
  const idleMs = options.idleMs ?? 100;
  const rememberMs = options.rememberMs ?? 120_000;
  /** Admitted devices: pulls in flight, and the timer that releases an idle one. */
  const admitted = new Map<number, { inFlight: number; idle?: ReturnType<typeof setTimeout> }>();
  /** When each device first asked: its place in the line, kept across a 503 and its retry. */
  const firstAsked = new Map<number, number>();
  const line: Waiter[] = [];
  /** Seconds a device took from admission to leaving, recent ones: the Retry-After estimate. */
  let meanHoldMs = 2000;
  const admittedAt = new Map<number, number>();

  let forgotAt = 0;
  const forget = (now: number) => {
    if (now - forgotAt < 1000) return;
    forgotAt = now;
    for (const [key, at] of firstAsked) {
      if (now - at > rememberMs && !admitted.has(key) && !line.some((w) => w.key === key)) firstAsked.delete(key);
    }
  };

  const admitNext = () => {
    line.sort((a, b) => a.since - b.since);
    while (admitted.size < maxDevices && line.length > 0) {
      const next = line[0] as Waiter;
      admit(next.key);
      // Every waiter of this device goes in with it (its other collections).
      for (let i = line.length - 1; i >= 0; i--) {
        const w = line[i] as Waiter;
        if (w.key === next.key) {
          line.splice(i, 1);
          w.admit();
        }
      }
    }
  };

  const admit = (key: number) => {
    admitted.set(key, { inFlight: 0 });
    admittedAt.set(key, Date.now());
  };

  const release = (key: number) => {
    // Its place in the line stays (firstAsked): a device released between two collections
    // (a slow phone, a slow network) comes back ahead of those that asked after it.
    admitted.delete(key);
    const at = admittedAt.get(key);
    admittedAt.delete(key);
    if (at !== undefined) meanHoldMs = meanHoldMs * 0.8 + (Date.now() - at) * 0.2;
    admitNext();
  };

  const enter = (key: number) => {
    const slot = admitted.get(key);
    if (!slot) return;
    clearTimeout(slot.idle);
    slot.idle = undefined;
    slot.inFlight++;
  };

  const leave = (key: number) => {
    const slot = admitted.get(key);
    if (!slot) return;
    slot.inFlight--;
    if (slot.inFlight === 0) {
      slot.idle = setTimeout(() => release(key), idleMs);
      slot.idle.unref?.();
    }
  };

  const wait = (key: number) =>
    new Promise<void>((resolve, reject) => {
      const now = Date.now();
      if (!firstAsked.has(key)) firstAsked.set(key, now);
      const waiter: Waiter = { key, since: firstAsked.get(key) as number, admit: () => done(resolve) };
      const timer = setTimeout(() => {
        const i = line.indexOf(waiter);
        if (i >= 0) line.splice(i, 1);
        const ahead = new Set(line.filter((w) => w.since < waiter.since).map((w) => w.key)).size;
        done(() => reject(busy(ahead, maxDevices, meanHoldMs)));
      }, maxWaitMs);
      timer.unref?.();
      function done(then: () => void) {
        clearTimeout(timer);
        then();
      }
      line.push(waiter);
      forget(now);
    });

  return {
    async run(key, initial, fn) {
      if (!admitted.has(key)) {
        if (!initial) return fn();
        if (admitted.size < maxDevices && line.length === 0) admit(key);
        else await wait(key);
      }
      enter(key);
      try {
        return await fn();
      } finally {
        leave(key);
      }
    },
    stats: () => ({ admitted: admitted.size, waiting: new Set(line.map((w) => w.key)).size }),
  };
}

/** 503 with the wait estimated from the devices ahead and how long a download has taken lately. */
function busy(ahead: number, maxDevices: number, meanHoldMs: number): DomainError {
  const seconds = Math.min(60, Math.max(1, Math.ceil(((ahead / maxDevices) * meanHoldMs) / 1000)));
  const problem = new DomainError(
    'SYNC_BUSY',
    `Muitos aparelhos sincronizando agora; o seu está na fila e continua sozinho em ${seconds} s.`,
    { retryAfterSeconds: seconds },
  );
  return problem;
}
