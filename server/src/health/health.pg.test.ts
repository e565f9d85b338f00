import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Health, Liveness } from '@campo/shared';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET, testApp } from '../../../test/support/app.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { EXPECTED_SCHEMA_VERSION } from './service.ts';

const db = useTestDatabase();

async function migrations(...versions: string[]) {
  await db.pool.query(
    'create schema if not exists app; create table if not exists app.schema_migrations (version text primary key)',
  );
  await db.pool.query('truncate app.schema_migrations');
  for (const v of versions) await db.pool.query('insert into app.schema_migrations values ($1)', [v]);
}

describe('GET /api/v1/health (readiness)', () => {
  it('is not ready before provisioning: 503 SCHEMA_MISSING', async () => {
    const res = await testApp(db.pool, {}, { asOwner: true }).request('/api/v1/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'unavailable',
      reason: 'SCHEMA_MISSING',
      version: expect.any(String),
      database: { reachable: true, schemaVersion: null, expectedSchemaVersion: EXPECTED_SCHEMA_VERSION },
    });
  });

  it('is not ready while the database lacks migrations this build ships: 503 SCHEMA_BEHIND', async () => {
    await migrations('0001', '0003', '0002');
    const res = await testApp(db.pool, {}, { asOwner: true }).request('/api/v1/health');
    expect(res.status).toBe(503);
    const body = (await res.json()) as Health;
    expect(body.reason).toBe('SCHEMA_BEHIND');
    expect(body.database.schemaVersion).toBe('0003');
  });

  it('is ready with the expected migration applied, and with a later one (rolling upgrade)', async () => {
    await migrations('0001', EXPECTED_SCHEMA_VERSION);
    let res = await testApp(db.pool, {}, { asOwner: true }).request('/api/v1/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'ok',
      database: { reachable: true, schemaVersion: EXPECTED_SCHEMA_VERSION },
    });
    const later = String(Number(EXPECTED_SCHEMA_VERSION) + 1).padStart(4, '0');
    await migrations(EXPECTED_SCHEMA_VERSION, later);
    res = await testApp(db.pool, {}, { asOwner: true }).request('/api/v1/health');
    expect(res.status).toBe(200);
    expect(((await res.json()) as Health).reason).toBeUndefined();
  });

  it('expects the latest migration file of sql/migrations', () => {
    // Migration 0013 (the push outbox's request id) is the newest this code needs, at least.
    expect(EXPECTED_SCHEMA_VERSION).toMatch(/^\d{4}$/);
    expect(Number(EXPECTED_SCHEMA_VERSION)).toBeGreaterThanOrEqual(13);
  });

  it('answers 503 DATABASE_UNREACHABLE when the database does not answer, while liveness stays 200', async () => {
    const dead = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 2000 });
    const app = testApp(dead);
    const res = await app.request('/api/v1/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      status: 'unavailable',
      reason: 'DATABASE_UNREACHABLE',
      database: { reachable: false },
    });
    const live = await app.request('/api/v1/health/live');
    expect(live.status).toBe(200);
    expect((await live.json()) as Liveness).toEqual({ status: 'ok', version: expect.any(String) });
    await dead.end();
  });
});

describe('campo serve', () => {
  it('serves liveness and readiness on PORT, metrics on METRICS_PORT, and logs one line per request with its id', async () => {
    await db.pool.query('drop schema if exists app cascade');
    await provisionedErp(db.pool);
    const campo = fileURLToPath(new URL('../../bin/campo.mjs', import.meta.url));
    const child = spawn(process.execPath, [campo, 'serve'], {
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        PORT: '0',
        METRICS_PORT: '0',
        HOST: '127.0.0.1',
        JWT_SECRET: TEST_JWT_SECRET,
        LOG_LEVEL: 'info',
        SYNC_REFRESH_SECONDS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const lines = () =>
      out.split('\n').flatMap((l) => (l.startsWith('{') ? [JSON.parse(l) as Record<string, unknown>] : []));
    const lineWith = (pred: (l: Record<string, unknown>) => boolean) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const check = () => {
          const hit = lines().find(pred);
          if (hit) {
            child.stdout.off('data', check);
            resolve(hit);
          }
        };
        child.stdout.on('data', check);
        child.once('exit', (code) => reject(new Error(`campo serve exited with ${code}: ${out}`)));
        check();
      });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    try {
      const [listening, metrics] = await Promise.all([
        lineWith((l) => l.msg === 'listening'),
        lineWith((l) => l.msg === 'metrics listening'),
      ]);
      const base = `http://127.0.0.1:${listening.port}/api/v1`;
      const live = await fetch(`${base}/health/live`);
      expect(live.status).toBe(200);
      const ready = await fetch(`${base}/health`, {
        headers: { 'X-Request-Id': 'probe-0001', Authorization: 'Bearer secret-token' },
      });
      expect(ready.status).toBe(200);
      expect(ready.headers.get('x-request-id')).toBe('probe-0001');
      expect(((await ready.json()) as Health).reason).toBeUndefined();

      const line = await lineWith((l) => l.msg === 'request' && l.requestId === 'probe-0001');
      expect(line).toMatchObject({ level: 'info', method: 'GET', route: '/api/v1/health', status: 200 });
      expect(typeof line.time).toBe('string');
      expect(out).not.toContain('secret-token');

      const scrape = await fetch(`http://127.0.0.1:${metrics.metricsPort}/metrics`);
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toMatch(
        /campo_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/health",status="200"\} 1/,
      );
      // The API's port does not publish the metrics (it may answer the app's page there).
      expect(await (await fetch(`http://127.0.0.1:${listening.port}/metrics`)).text()).not.toContain('campo_http');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
