// Lining a race up: a test holds a lock, starts the requests that must meet on it, and waits
// until they are all queued behind it before letting go, so the race happens on every run
// rather than by luck.
import type pg from 'pg';

/**
 * Resolves once `n` statements of roles other than the pool's wait on a lock (the server's
 * role, whose requests the test started), or once `unless` settled (a request that did not
 * wait: its outcome then says what went wrong).
 */
export async function waitingOnLocks(pool: pg.Pool, n: number, unless: Promise<unknown>): Promise<void> {
  let settled = false;
  const done = () => {
    settled = true;
  };
  unless.then(done, done);
  for (const end = Date.now() + 10_000; !settled; ) {
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and usename <> current_user and wait_event_type = 'Lock'`,
    );
    if ((rows[0]?.n ?? 0) >= n) return;
    if (Date.now() > end) throw new Error(`${rows[0]?.n} statements wait on a lock, not ${n}`);
    // No event tells that a backend started waiting on a lock: pg_stat_activity is polled.
    await new Promise((r) => setTimeout(r, 5));
  }
}
