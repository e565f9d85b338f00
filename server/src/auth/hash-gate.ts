// A bound on concurrent password hashing in this process. scrypt costs ~100 ms of a core and
// 32 MiB; sixty anonymous logins at once used to take every core and slow every other request
// of the process (GET /auth/me from 7 ms to ~3 s). Per process on purpose: what it protects is
// this process's CPU, so several processes each keep their own.
import { DomainError } from '../errors.ts';

export const DEFAULT_HASH_CONCURRENCY = 2;
export const DEFAULT_HASH_WAIT_MS = 3000;
/** Waiting callers beyond this are refused at once: a flood must not queue without end. */
export const DEFAULT_HASH_QUEUE = 64;

export const busy = () =>
  new DomainError('LOGIN_BUSY', 'Muitos logins ao mesmo tempo. Tente de novo em instantes.', {
    retryAfterSeconds: 1,
  });

export interface HashGateOptions {
  concurrency?: number;
  maxWaitMs?: number;
  maxQueue?: number;
}

/** Runs at most `concurrency` tasks at once; a task that waited more than maxWaitMs gets 503 LOGIN_BUSY. */
export function createHashGate(options: HashGateOptions = {}) {
  const limit = Math.max(1, options.concurrency ?? DEFAULT_HASH_CONCURRENCY);
  const maxWait = options.maxWaitMs ?? DEFAULT_HASH_WAIT_MS;
  const maxQueue = options.maxQueue ?? DEFAULT_HASH_QUEUE;
  let active = 0;
  const queue: { resolve: () => void; timer: NodeJS.Timeout }[] = [];

  const acquire = (): Promise<void> => {
    if (active < limit) {
      active++;
      return Promise.resolve();
    }
    if (queue.length >= maxQueue || maxWait <= 0) return Promise.reject(busy());
    return new Promise<void>((resolve, reject) => {
      const entry = {
        resolve,
        timer: setTimeout(() => {
          queue.splice(queue.indexOf(entry), 1);
          reject(busy());
        }, maxWait),
      };
      queue.push(entry);
    });
  };

  const release = () => {
    const next = queue.shift();
    if (next) {
      // The slot passes straight to the next waiter: `active` stays the same.
      clearTimeout(next.timer);
      next.resolve();
    } else {
      active--;
    }
  };

  return {
    /** Throws busy() without running `task` when no slot freed in time. */
    async run<T>(task: () => Promise<T>): Promise<T> {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
export type HashGate = ReturnType<typeof createHashGate>;
