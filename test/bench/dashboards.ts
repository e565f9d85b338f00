// The dashboards on the large reference ERP: each dashboard, in-process through the whole API
// (auth, validation, the SQL), for a representative, a supervisor and a manager, timed after a
// warm-up. The fixture is built as of now, so the current month has data. Target: < 100 ms.

import { createApp } from '../../server/src/app.ts';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.ts';
import { createDb } from '../../server/src/db/kysely.ts';
import { createPool } from '../../server/src/db/pool.ts';
import { createErpFixture } from '../../server/src/erp-fixture/generate.ts';
import { grantServerRole } from '../../server/src/provisioning/grant.ts';
import { provision } from '../../server/src/provisioning/provision.ts';
import { addUser } from '../../server/src/users/service.ts';
import { table, writeSection } from './report.ts';

const WARM_UP = 5;
const RUNS = 40;
const TARGET_MS = 100;
const PASSWORD = 'bench-password-1';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function benchDashboards(): Promise<void> {
  const server = await startEmbeddedPostgres({});
  try {
    const admin = createPool(server.url(), 1);
    await admin.query("create database erp encoding 'LATIN1' lc_collate 'C' lc_ctype 'C' template template0");
    await admin.end();
    const pool = createPool(server.url('erp'), 4);
    const serverUrl = new URL(server.url('erp'));
    serverUrl.username = 'campo_bench';
    serverUrl.password = 'campo_bench';
    const serverPool = createPool(serverUrl.toString(), 4);
    try {
      process.stderr.write('creating the large fixture...\n');
      const fixture = await createErpFixture(pool, { scale: 'large', asOf: new Date() });
      await provision(pool, {});
      await pool.query(
        "do $$ begin create role campo_bench login password 'campo_bench'; exception when duplicate_object then null; end $$",
      );
      await grantServerRole(pool, 'campo_bench');
      await pool.query('analyze');
      // The first tenant's rep with the most clients, their supervisor, and a manager.
      const { rows } = await pool.query<{ id_empresa: number; cod_vendedor: number; cod_supervisor: number }>(
        `select v.id_empresa, v.cod_vendedor, v.cod_supervisor
           from app.vw_vendedores v join corrent c on c.cod_vendedor = v.cod_vendedor and c.id_empresa = v.id_filial
          where v.cod_supervisor is not null
          group by 1, 2, 3 order by count(*) desc, 1, 2 limit 1`,
      );
      const who = rows[0];
      if (!who) throw new Error('no representative with a supervisor in the large fixture');
      const db = createDb(pool);
      const users = [
        { login: 'rep@bench.test', role: 'representative', codVendedor: who.cod_vendedor },
        { login: 'sup@bench.test', role: 'supervisor', codSupervisor: who.cod_supervisor },
        { login: 'mgr@bench.test', role: 'manager' },
      ] as const;
      for (const u of users) {
        await addUser(db, {
          codVendedor: null,
          codSupervisor: null,
          ...u,
          name: u.login,
          idEmpresa: who.id_empresa,
          password: PASSWORD,
        });
      }
      const app = createApp({
        pool: serverPool,
        config: { jwtSecret: 'bench-secret-that-is-long-enough-for-hs256!', tokenTtlHours: 1, devLogin: false },
      });
      const token = async (login: string) => {
        const res = await app.request('/api/v1/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ login, password: PASSWORD }),
        });
        return ((await res.json()) as { token: string }).token;
      };
      const cases = [
        { name: 'GET /dashboard/rep (representative)', login: 'rep@bench.test', path: '/dashboard/rep' },
        { name: 'GET /dashboard/supervisor (supervisor)', login: 'sup@bench.test', path: '/dashboard/supervisor' },
        {
          name: 'GET /dashboard/supervisor (manager, whole tenant)',
          login: 'mgr@bench.test',
          path: '/dashboard/supervisor',
        },
        { name: 'GET /dashboard/manager (manager)', login: 'mgr@bench.test', path: '/dashboard/manager' },
        { name: 'GET /equipe/supervisores (manager)', login: 'mgr@bench.test', path: '/equipe/supervisores' },
      ];
      const results: (string | number)[][] = [];
      for (const c of cases) {
        const auth = { authorization: `Bearer ${await token(c.login)}` };
        const times: number[] = [];
        for (let i = 0; i < WARM_UP + RUNS; i++) {
          const t = performance.now();
          const res = await app.request(`/api/v1${c.path}`, { headers: auth });
          if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${await res.text()}`);
          await res.arrayBuffer();
          if (i >= WARM_UP) times.push(performance.now() - t);
        }
        times.sort((a, b) => a - b);
        const p50 = percentile(times, 50);
        const p95 = percentile(times, 95);
        results.push([c.name, `${p50.toFixed(1)} ms`, `${p95.toFixed(1)} ms`, p95 < TARGET_MS ? 'yes' : 'no']);
        process.stderr.write(`${c.name}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms\n`);
      }
      const lines = fixture.counts.pedidos_venda_itens ?? 0;
      const body = [
        `Command: \`pnpm bench dashboards\` (PostgreSQL 18, the \`large\` fixture built as of the run's day with`,
        `${lines.toLocaleString('en')} ERP order lines; in-process \`app.request\` through auth, validation and SQL;`,
        `${RUNS} sequential requests per row after ${WARM_UP} warm-up ones; the representative with the most clients`,
        `of the first tenant, their supervisor, a manager). Target: p95 under ${TARGET_MS} ms.`,
        '',
        table(['dashboard', 'p50', 'p95', `under ${TARGET_MS} ms`], results),
      ].join('\n');
      writeSection('dashboards', 'Dashboards on the large fixture', body);
      process.stdout.write(`${body}\n`);
    } finally {
      await serverPool.end();
      await pool.end();
    }
  } finally {
    await server.stop();
  }
}
