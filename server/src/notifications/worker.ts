// The push worker: drains app.push_outbox with Web Push. Every server process may run one;
// the claim is SELECT ... FOR UPDATE SKIP LOCKED (app.push_outbox_reservar), held until the
// outcome is recorded, so two processes never send the same row. It runs apart from the
// requests: an order has committed long before its notification is sent, and a push
// service that is slow or down only delays notifications (docs/push.md).
import type { Agent } from 'node:https';
import { backoffDelay, toErpText } from '@campo/shared';
import type pg from 'pg';
import webpush from 'web-push';
import { availabilityOf } from '../db/availability.ts';
import { createDb } from '../db/kysely.ts';
import { setScope, type Tx } from '../db/scope.ts';
import { log as defaultLog } from '../log.ts';
import { pushDeliveries, pushGivenUp } from '../metrics.ts';
import {
  claimDue,
  type DeviceRow,
  deleteDevice,
  devicesOf,
  type OutboxOutcome,
  type OutboxRow,
  purgeFinished,
  recordOutcome,
} from './queries.ts';
import type { VapidKeys } from './vapid.ts';

export interface PushLog {
  debug?(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface PushDrainOptions {
  pool: pg.Pool;
  /** null: push disabled; drainOnce claims nothing and the rows wait. */
  vapid: VapidKeys | null;
  /** Rows claimed per drain (default 20). */
  batchSize?: number;
  /** Attempts before a row is given up (default 8: about an hour with the default backoff). */
  maxAttempts?: number;
  /** First retry delay; doubled per attempt up to retryMaxMs (defaults 30 s and 1 h). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Socket timeout of one push request (default 10 s). */
  requestTimeoutMs?: number;
  /** Push requests in flight at once per drain (default 8). */
  concurrency?: number;
  log?: PushLog;
  /** The https.Agent for push requests; tests pass one that trusts the local push service. */
  agent?: Agent;
}

export interface PushWorkerOptions extends PushDrainOptions {
  /** Pause between drains when the outbox had nothing more to send (default 2 s). */
  intervalMs?: number;
  /** Finished rows are deleted after this many days (default 30). */
  retentionDays?: number;
}

export interface DrainResult {
  /** Outbox rows claimed by this drain. */
  claimed: number;
  /** Rows finished: every device answered, or the recipient had none. */
  sent: number;
  /** Rows that will be tried again (some device answered 429, 5xx or not at all). */
  retried: number;
  /** Rows given up. */
  failed: number;
  /** Push requests a push service accepted. */
  deliveries: number;
  /** Subscriptions removed because their push service said they are gone (404/410). */
  removedDevices: number;
}

export interface PushDrainer {
  drainOnce(): Promise<DrainResult>;
}

export interface PushWorker extends PushDrainer {
  /** Stops the loop and waits for a drain in progress to finish. */
  stop(): Promise<void>;
}

type SendResult =
  | { kind: 'delivered' }
  | { kind: 'gone'; error: string }
  | { kind: 'retry'; error: string; retryAfterMs: number | null }
  | { kind: 'refused'; error: string };

const EMPTY: DrainResult = { claimed: 0, sent: 0, retried: 0, failed: 0, deliveries: 0, removedDevices: 0 };

/** The error as the outbox keeps it: short, and LATIN1-safe like every text column. */
function errorText(text: string): string {
  return toErpText(text, 500);
}

function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'endpoint';
  }
}

/** Retry-After in seconds or as an HTTP date (RFC 9110), in ms from now. */
function retryAfterMs(value: string | string[] | undefined): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** Runs fn over items with at most `limit` in flight. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/**
 * Seconds the push service may still keep the message, or null when it has expired. TTL
 * counts from when the event happened: a retry an hour later asks for an hour less. TTL 0
 * means "only if the device is reachable now", so it gets one attempt.
 */
function remainingTtl(row: OutboxRow, now: number): number | null {
  if (row.ttl === 0) return row.tentativas === 0 ? 0 : null;
  const left = row.ttl - Math.floor((now - row.criado_em.getTime()) / 1000);
  return left > 0 ? left : null;
}

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

export function createPushDrainer(options: PushDrainOptions): PushDrainer {
  const db = createDb(options.pool);
  const batchSize = options.batchSize ?? 20;
  const maxAttempts = options.maxAttempts ?? 8;
  const retryBaseMs = options.retryBaseMs ?? 30_000;
  const retryMaxMs = options.retryMaxMs ?? 60 * 60_000;
  const timeout = options.requestTimeoutMs ?? 10_000;
  const concurrency = options.concurrency ?? 8;
  const log = options.log ?? defaultLog;
  const vapid = options.vapid;

  async function send(row: OutboxRow, device: DeviceRow, ttl: number): Promise<SendResult> {
    if (!vapid) throw new Error('push is disabled');
    const where = hostOf(device.endpoint);
    try {
      await webpush.sendNotification(
        { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
        row.payload,
        {
          vapidDetails: vapid,
          TTL: ttl,
          urgency: row.urgencia,
          ...(row.topico ? { topic: row.topico } : {}),
          contentEncoding: 'aes128gcm',
          timeout,
          ...(options.agent ? { agent: options.agent } : {}),
        },
      );
      return { kind: 'delivered' };
    } catch (err) {
      if (err instanceof webpush.WebPushError) {
        const error = `HTTP ${err.statusCode} from ${where}: ${String(err.body ?? '').slice(0, 200)}`;
        // 404/410: the browser dropped the subscription (uninstalled, permission revoked).
        if (err.statusCode === 404 || err.statusCode === 410) return { kind: 'gone', error };
        if (err.statusCode === 429 || err.statusCode >= 500) {
          return { kind: 'retry', error, retryAfterMs: retryAfterMs(err.headers?.['retry-after']) };
        }
        // 400, 401/403 (VAPID refused), 413: sending the same request again cannot succeed.
        return { kind: 'refused', error };
      }
      const e = err as NodeJS.ErrnoException;
      // The network or the push service not answering: worth another try later.
      if (e.code || /timeout/i.test(e.message)) {
        return { kind: 'retry', error: `${where}: ${e.code ?? e.message}`, retryAfterMs: null };
      }
      // Anything else is about this subscription's data (e.g. keys that do not encrypt).
      return { kind: 'refused', error: `${where}: ${e.message}` };
    }
  }

  function backoff(attempt: number, hint: number | null): number {
    const exp = backoffDelay(attempt - 1, retryBaseMs, retryMaxMs);
    // ±20 %: rows that failed together (a push service outage) do not all come back together.
    const jittered = exp * (0.8 + Math.random() * 0.4);
    return Math.min(retryMaxMs, Math.max(jittered, hint ?? 0));
  }

  function outcomeOf(row: OutboxRow, devices: DeviceRow[], results: SendResult[]): OutboxOutcome {
    const attempt = row.tentativas + 1;
    const delivered = results.filter((r) => r.kind === 'delivered').length;
    const errors = results.flatMap((r) => (r.kind === 'delivered' ? [] : [r.error]));
    const lastError = errors.length ? errorText(errors.join('; ')) : null;
    const retry = devices.filter((_, i) => results[i]?.kind === 'retry');
    if (devices.length === 0) return { kind: 'sent', delivered: 0, error: 'no device registered' };
    if (retry.length > 0 && lastError) {
      if (attempt >= maxAttempts)
        return { kind: 'failed', delivered, error: `gave up after ${attempt} attempts: ${lastError}` };
      const hints = results.flatMap((r) => (r.kind === 'retry' && r.retryAfterMs !== null ? [r.retryAfterMs] : []));
      const at = new Date(Date.now() + backoff(attempt, hints.length ? Math.max(...hints) : null));
      return { kind: 'retry', delivered, error: lastError, pending: retry.map((d) => d.endpoint), at };
    }
    const refusedAll = results.every((r) => r.kind === 'refused');
    if (refusedAll && lastError) return { kind: 'failed', delivered, error: lastError };
    return { kind: 'sent', delivered, error: lastError };
  }

  async function drainIn(tx: Tx): Promise<DrainResult> {
    const rows = await claimDue(tx, batchSize);
    if (rows.length === 0) return EMPTY;
    const byTenant = groupBy(rows, (r) => r.id_empresa);

    // Each tenant's devices are read under row-level security with that tenant set.
    const targets = new Map<number, DeviceRow[]>();
    for (const [tenant, tenantRows] of byTenant) {
      await setScope(tx, { idEmpresa: tenant, codVendedor: null }, { writerLock: false });
      const devices = await devicesOf(tx, tenant, [...new Set(tenantRows.map((r) => r.usuario))]);
      for (const row of tenantRows) {
        const pending = row.endpoints_pendentes ? new Set(row.endpoints_pendentes) : null;
        targets.set(
          row.id,
          devices.filter((d) => d.usuario === row.usuario && (pending === null || pending.has(d.endpoint))),
        );
      }
    }

    const now = Date.now();
    const ttlLeft = new Map(rows.map((row) => [row.id, remainingTtl(row, now)]));
    const jobs = rows.flatMap((row) => {
      const ttl = ttlLeft.get(row.id);
      return ttl === null || ttl === undefined
        ? []
        : (targets.get(row.id) ?? []).map((device) => ({ row, device, ttl }));
    });
    // One device's messages go one after the other, oldest first, so a newer notification
    // with the same tag is never overtaken by an older one; different devices in parallel.
    const resultOf = new Map<string, SendResult>();
    const perDevice = [...groupBy(jobs, (j) => j.device.endpoint).values()];
    await mapLimit(perDevice, concurrency, async (deviceJobs) => {
      for (const j of deviceJobs) resultOf.set(`${j.row.id} ${j.device.endpoint}`, await send(j.row, j.device, j.ttl));
    });

    const result = { ...EMPTY, claimed: rows.length };
    for (const [tenant, tenantRows] of byTenant) {
      await setScope(tx, { idEmpresa: tenant, codVendedor: null }, { writerLock: false });
      for (const row of tenantRows) {
        const devices = targets.get(row.id) ?? [];
        let outcome: OutboxOutcome;
        if (ttlLeft.get(row.id) === null && devices.length > 0) {
          outcome = { kind: 'failed', delivered: 0, error: `expired: its TTL of ${row.ttl} s ran out before delivery` };
        } else {
          const results = devices.map((d) => resultOf.get(`${row.id} ${d.endpoint}`) as SendResult);
          for (const [i, r] of results.entries()) {
            const device = devices[i];
            if (r.kind === 'gone' && device) {
              await deleteDevice(tx, tenant, device.endpoint);
              result.removedDevices++;
            }
          }
          outcome = outcomeOf(row, devices, results);
        }
        await recordOutcome(tx, row.id, outcome);
        result.deliveries += outcome.delivered;
        pushDeliveries.inc(outcome.delivered);
        // requestId: the request that queued the message, so its trail reads end to end.
        const about = { outboxId: row.id, idEmpresa: tenant, requestId: row.id_requisicao ?? undefined };
        if (outcome.kind === 'sent') {
          result.sent++;
          log.debug?.('push: message sent', { ...about, deliveries: outcome.delivered });
        } else if (outcome.kind === 'retry') {
          result.retried++;
          log.debug?.('push: message to retry', { ...about, error: outcome.error });
        } else {
          result.failed++;
          pushGivenUp.inc();
          log.warn('push: message given up', { ...about, error: outcome.error });
        }
      }
    }
    return result;
  }

  return {
    async drainOnce() {
      if (!vapid) return EMPTY;
      return db.transaction().execute(drainIn);
    },
  };
}

/**
 * Starts draining in the background: again at once while full batches come out, otherwise
 * every intervalMs. Errors are logged and the loop goes on; nothing here can reach a request.
 */
export function startPushWorker(options: PushWorkerOptions): PushWorker {
  const drainer = createPushDrainer(options);
  const log = options.log ?? defaultLog;
  const intervalMs = options.intervalMs ?? 2000;
  const batchSize = options.batchSize ?? 20;
  const retentionDays = options.retentionDays ?? 30;
  const db = createDb(options.pool);
  const database = availabilityOf(options.pool);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastPurge = 0;
  let running: Promise<void> = Promise.resolve();

  let failures = 0;

  const tick = async () => {
    let again = false;
    try {
      const r = await drainer.drainOnce();
      failures = 0;
      again = r.claimed >= batchSize;
      if (r.claimed > 0) log.info('push: drained', { ...r });
      if (Date.now() - lastPurge > 60 * 60_000) {
        lastPurge = Date.now();
        const purged = await db.transaction().execute((tx) => purgeFinished(tx, retentionDays));
        if (purged > 0) log.info('push: old outbox rows deleted', { rows: purged, olderThanDays: retentionDays });
      }
    } catch (err) {
      failures++;
      // The database away is logged once for the whole process, by its tracker.
      if (!database.failed(err))
        log.error('push: drain failed', { error: err instanceof Error ? err.message : String(err), failures });
    }
    if (!stopped) {
      // A database that is down or not provisioned yet gets asked less and less often, up to once a minute.
      const pause = failures > 0 ? backoffDelay(failures, intervalMs, 60_000) : again ? 0 : intervalMs;
      timer = setTimeout(() => {
        running = tick();
      }, pause);
      // The worker alone must not keep a process alive that is otherwise done.
      timer.unref();
    }
  };
  running = tick();

  return {
    drainOnce: () => drainer.drainOnce(),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
