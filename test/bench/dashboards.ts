// The dashboards on the large reference ERP: each dashboard, in-process through the whole API
// (auth, validation, the SQL), for a representative, a supervisor and a manager, timed after a
// warm-up. The fixture is built as of now, so the current month has data. Target: < 100 ms.
// pg_stat_statements says what each dashboard costs PostgreSQL, and which of its statements
// spend more time planning than executing (issue #20: none should, on a hot path).

import { measurePhase, PG_STAT_SETTINGS, type StatementCost, shortQuery } from './pg-cost.ts';
import { table, writeSection } from './report.ts';
import { type BenchErp, orderableCatalog, percentile, withBenchErp } from './setup.ts';

const WARM_UP = 5;
const RUNS = 40;
const TARGET_MS = 100;

export async function benchDashboards(): Promise<void> {
  await withBenchErp(
    'large',
    async ({ app, fixture, token: tokenOf, pool, postmasterPid, who }) => {
      const logins = {
        'rep@bench.test': 'representative',
        'sup@bench.test': 'supervisor',
        'mgr@bench.test': 'manager',
      } as const;
      const token = (login: keyof typeof logins) => tokenOf(logins[login]);
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
      ] as const;
      const targets = await setMonthTargets(app, pool, who.idEmpresa, await token('mgr@bench.test'));
      const orders = await placeOrders(app, pool, who, await token('rep@bench.test'), await token('sup@bench.test'));
      const results: (string | number)[][] = [];
      const planHeavy: (string | number)[][] = [];
      const ms = (v: number) => `${v.toFixed(2)} ms`;
      for (const c of cases) {
        const auth = { authorization: `Bearer ${await token(c.login)}` };
        const times: number[] = [];
        const request = async (timed: boolean) => {
          const t = performance.now();
          const res = await app.request(`/api/v1${c.path}`, { headers: auth });
          if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${await res.text()}`);
          await res.arrayBuffer();
          if (timed) times.push(performance.now() - t);
        };
        for (let i = 0; i < WARM_UP; i++) await request(false);
        const cost = await measurePhase(pool, postmasterPid, async () => {
          for (let i = 0; i < RUNS; i++) await request(true);
        });
        for (const st of cost.statements.filter((x: StatementCost) => x.planMs > x.execMs && x.calls >= RUNS)) {
          planHeavy.push([c.name, shortQuery(st.query, 70), ms(st.planMs / st.calls), ms(st.execMs / st.calls)]);
        }
        times.sort((a, b) => a - b);
        const p50 = percentile(times, 50);
        const p95 = percentile(times, 95);
        results.push([
          c.name,
          `${p50.toFixed(1)} ms`,
          `${p95.toFixed(1)} ms`,
          p95 < TARGET_MS ? 'yes' : 'no',
          (cost.calls / RUNS).toFixed(1),
          ms(cost.planMs / RUNS),
          ms(cost.execMs / RUNS),
        ]);
        process.stderr.write(`${c.name}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms\n`);
      }
      const lines = fixture.counts.pedidos_venda_itens ?? 0;
      const body = [
        `Command: \`pnpm bench dashboards\` (PostgreSQL 18, the \`large\` fixture built as of the run's day with`,
        `${lines.toLocaleString('en')} ERP order lines; in-process \`app.request\` through auth, validation and SQL;`,
        `${RUNS} sequential requests per row after ${WARM_UP} warm-up ones; the representative with the most clients`,
        `of the first tenant, their supervisor, a manager; the manager first sets the month's target of each of the`,
        `tenant's ${targets} active representatives through PUT /metas/{mes}, and the representative places ${orders.placed}`,
        `orders through POST /orders, of which the supervisor approves ${orders.approved} and rejects ${orders.rejected}).`,
        `Target: p95 under ${TARGET_MS} ms.`,
        '',
        table(
          [
            'dashboard',
            'p50',
            'p95',
            `under ${TARGET_MS} ms`,
            'statements / request',
            'planning / request',
            'execution / request',
          ],
          results,
        ),
        '',
        'Planning and execution: pg_stat_statements over the timed requests. Statements that spend more time planning',
        `than executing: ${planHeavy.length === 0 ? 'none.' : ''}`,
        ...(planHeavy.length === 0
          ? []
          : ['', table(['dashboard', 'statement', 'planning / call', 'execution / call'], planHeavy)]),
      ].join('\n');
      writeSection('dashboards', 'Dashboards on the large fixture', body);
      process.stdout.write(`${body}\n`);
    },
    { settings: PG_STAT_SETTINGS },
  );
}

/**
 * The month's targets, set as a manager does (PUT /metas/{mes}): a tenant that uses the
 * dashboards has them, and without them the targets' read runs on an empty table. Returns how
 * many were set.
 */
async function setMonthTargets(
  app: BenchErp['app'],
  pool: BenchErp['pool'],
  idEmpresa: number,
  token: string,
): Promise<number> {
  const { rows } = await pool.query<{ cod_vendedor: number; mes: string }>(
    `select cod_vendedor, to_char(now() at time zone 'America/Sao_Paulo', 'YYYY-MM') as mes
       from app.vw_vendedores where id_empresa = $1 and ativo order by cod_vendedor`,
    [idEmpresa],
  );
  for (let i = 0; i < rows.length; i += 500) {
    const metas = rows
      .slice(i, i + 500)
      .map((r) => ({ codVendedor: r.cod_vendedor, valorMeta: 50_000 + 250 * (r.cod_vendedor % 40) }));
    const res = await app.request(`/api/v1/metas/${rows[0]?.mes}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ metas }),
    });
    if (res.status !== 200) throw new Error(`PUT /metas: ${res.status} ${await res.text()}`);
  }
  return rows.length;
}

/**
 * Campo's own orders, placed and decided through the API: without them the pending count and
 * the recent orders read empty tables, which no tenant using the dashboards has.
 */
async function placeOrders(
  app: BenchErp['app'],
  pool: BenchErp['pool'],
  who: BenchErp['who'],
  repToken: string,
  supToken: string,
): Promise<{ placed: number; approved: number; rejected: number }> {
  const { clients, products } = await orderableCatalog(pool, who, { clients: 30, products: 40 });
  if (clients.length === 0 || products.length < 5)
    throw new Error('no client with five priced products for the bench orders');
  const json = (token: string, body: unknown, extra: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra },
    body: JSON.stringify(body),
  });
  const ids: number[] = [];
  for (let i = 0; i < 60; i++) {
    const itens = Array.from({ length: 5 }, (_, k) => ({
      idProduto: products[(i * 5 + k) % products.length] as number,
      quantidade: 1 + k,
      descontoPercent: 0,
    }));
    const res = await app.request(
      '/api/v1/orders',
      json(repToken, { idCliente: clients[i % clients.length], itens }, { 'idempotency-key': `bench-dashboards-${i}` }),
    );
    if (res.status !== 201) throw new Error(`POST /orders: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { id: number }).id);
  }
  const approve = ids.slice(0, 20);
  const reject = ids.slice(20, 30);
  for (const id of approve) {
    const res = await app.request(`/api/v1/orders/${id}/approve`, json(supToken, {}));
    if (res.status !== 200) throw new Error(`approve: ${res.status} ${await res.text()}`);
  }
  for (const id of reject) {
    const res = await app.request(
      `/api/v1/orders/${id}/reject`,
      json(supToken, { motivo: 'Fora da política do mês.' }),
    );
    if (res.status !== 200) throw new Error(`reject: ${res.status} ${await res.text()}`);
  }
  return { placed: ids.length, approved: approve.length, rejected: reject.length };
}
