// `pnpm bench orders --history` (issue #51): does an order cost more as the history grows?
// The same orders, one at a time (deterministic statement and buffer counts), while the bench
// clients' open orders go from 0 to 100 and 400 each, and app.pedidos from about 10,000 orders
// to HISTORY_TOTAL (invoiced, rejected, approved and pending mixed, as a distributor's year).
// Per order: statements, pg_stat_statements execution time, shared buffers touched (hit, read
// or dirtied, the figure that does not depend on the machine's speed) and PostgreSQL CPU; the
// order's last statement apart, with its EXPLAIN (ANALYZE, BUFFERS) from auto_explain at 0 and
// 400 open orders per client.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type pg from 'pg';
import { createApp } from '../../server/src/app.ts';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.ts';
import { createPool } from '../../server/src/db/pool.ts';
import { LINES, orderFor, PASSWORD, type Rep, setUp } from './orders.ts';
import { measurePhase, PG_STAT_SETTINGS } from './pg-cost.ts';
import { machine, table, writeSection } from './report.ts';

/** Orders measured at each stage, after WARM_UP more (plan caches, the change log's rows). */
const ORDERS = Number(process.env.BENCH_HISTORY_ORDERS ?? 160);
const WARM_UP = 40;
/** Decided orders per representative set up before the run: 8 of them, about 10,000 orders. */
const HISTORY_PER_REP = 1250;
/** The orders in app.pedidos at the last stage. */
const HISTORY_TOTAL = Number(process.env.BENCH_HISTORY_TOTAL ?? 1_000_000);

/** The bench clients' open orders closed (invoiced): a stage starts from none, then adds. */
const CLOSE_OPEN = `update app.pedidos set situa = 3 where situa in (1, 2) and id_cliente = any($1::integer[])`;

/**
 * `$2` approved orders (open: the client's credit counts them) for each bench client `$1`, of
 * one line each, with their history entry, as the order's own write leaves them.
 */
const OPEN_ORDERS = `
  with pedido as (
    insert into app.pedidos (id_empresa, num_ped_sar, cod_vendedor, situa, id_cliente, nome_cliente, end_entrega,
                             id_pauta, valor_bruto, valor_total, decidido_por, decidido_em, criado_em)
    select c.id_empresa, app.proximo_num_ped_sar(c.id_empresa), c.cod_vendedor, 2, c.id_cliente, 'Cliente',
           'Rua 1, Centro', 1, 10, 10, 'bench', now() - g * interval '1 minute', now() - g * interval '1 minute'
      from app.vw_clientes c, generate_series(1, $2::integer) g
     where c.id_cliente = any($1::integer[])
    returning id, id_empresa, criado_em),
  itens as (
    insert into app.pedido_itens (id_pedido, seq, id_empresa, id_produto, cod_produto, descricao, quantidade,
                                  preco_tabela, preco_unitario, perc_desconto, teto_desconto, id_pauta, valor_total)
    select p.id, 1, p.id_empresa, $3, 'X', 'Produto', 5, 2, 2, 0, 5, 1, 10 from pedido p)
  insert into app.pedido_status_historico (id_pedido, id_empresa, situa_para, usuario, criado_em)
  select id, id_empresa, 1, 'bench', criado_em from pedido`;

/**
 * A distributor's year for every other client of the fixture, up to `$1` orders in all: one
 * line each, 90 % invoiced, 6 % rejected, 2 % approved, 2 % pending, over the past year.
 */
const YEAR = `
  with clientes as (
    select row_number() over (order by c.id_empresa, c.id_cliente) as n, c.id_empresa, c.id_cliente, c.cod_vendedor
      from app.vw_clientes c
     where c.cod_vendedor is not null and not (c.id_cliente = any($2::integer[]))),
  quantos as (select count(*) as n from clientes),
  pedido as (
    insert into app.pedidos (id_empresa, num_ped_sar, cod_vendedor, situa, id_cliente, nome_cliente, end_entrega,
                             id_pauta, valor_bruto, valor_total, motivo_rejeicao, decidido_por, decidido_em, criado_em)
    select c.id_empresa, app.proximo_num_ped_sar(c.id_empresa), c.cod_vendedor,
           case when g % 50 = 0 then 1 when g % 50 = 1 then 2 when g % 50 < 5 then 4 else 3 end,
           c.id_cliente, 'Cliente', 'Rua 1, Centro', 1, 10, 10,
           case when g % 50 between 2 and 4 then 'Fora da política' end, 'bench',
           now() - (g % 365) * interval '1 day', now() - (g % 365) * interval '1 day'
      from generate_series(1, $1::integer) g
      join clientes c on c.n = 1 + g % (select n from quantos)
    returning id, id_empresa, criado_em),
  itens as (
    insert into app.pedido_itens (id_pedido, seq, id_empresa, id_produto, cod_produto, descricao, quantidade,
                                  preco_tabela, preco_unitario, perc_desconto, teto_desconto, id_pauta, valor_total)
    select p.id, 1, p.id_empresa, $3, 'X', 'Produto', 5, 2, 2, 0, 5, 1, 10 from pedido p)
  insert into app.pedido_status_historico (id_pedido, id_empresa, situa_para, usuario, criado_em)
  select id, id_empresa, 1, 'bench', criado_em from pedido`;

/** The order's last statement, as pg_stat_statements normalises it. */
const isLast = (query: string) => /with numero as/i.test(query);

interface Stage {
  label: string;
  openPerClient: number;
  orders: number;
  statements: number;
  execMs: number;
  blocks: number;
  cpuMs: number;
  lastExecMs: number;
  lastBlocks: number;
}

export async function benchOrdersHistory(): Promise<void> {
  const portBase = Number(process.env.BENCH_PORT_BASE ?? 0);
  let capture: string[] | null = null;
  const server = await startEmbeddedPostgres({
    port: portBase,
    settings: [
      ...PG_STAT_SETTINGS.map((s) => (s.startsWith('shared_preload_libraries=') ? `${s},auto_explain` : s)),
      'auto_explain.log_analyze=on',
      'auto_explain.log_buffers=on',
      'auto_explain.log_timing=off',
      'auto_explain.log_nested_statements=off',
    ],
    onLog: (line) => capture?.push(line),
  });
  const admin = createPool(server.url(), 1);
  await admin.query("create database erp encoding 'LATIN1' lc_collate 'C' lc_ctype 'C' template template0");
  await admin.end();
  const pool = createPool(server.url('erp'), 4);
  let serverPool: pg.Pool | null = null;
  try {
    process.stderr.write('setting up the small fixture...\n');
    const { reps, serverUrl } = await setUp(pool, server.url('erp'), HISTORY_PER_REP);
    if (process.env.BENCH_CREDIT_POLICY)
      await pool.query('update app.config_empresa set politica_credito = $1', [process.env.BENCH_CREDIT_POLICY]);
    await pool.query('vacuum analyze');
    serverPool = createPool(serverUrl, 1);
    const app = createApp({
      pool: serverPool,
      config: { jwtSecret: 'b'.repeat(40), tokenTtlHours: 1, devLogin: false },
    });
    const withTokens: Rep[] = [];
    for (const r of reps) {
      const res = await app.request('/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: r.login, password: PASSWORD }),
      });
      withTokens.push({ ...r, token: ((await res.json()) as { token: string }).token });
    }
    const clients = [...new Set(reps.flatMap((r) => r.clients))];
    const product = reps[0]?.products[0] as number;
    let sent = 0;
    const post = async () => {
      const i = sent++;
      const rep = withTokens[i % withTokens.length] as Rep;
      const res = await app.request('/api/v1/orders', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${rep.token}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify(orderFor(rep, i)),
      });
      if (res.status !== 201) throw new Error(`POST /orders: ${res.status} ${await res.text()}`);
    };
    const stages: Stage[] = [];
    const plans: { label: string; plan: string }[] = [];
    const totalOrders = async () =>
      Number((await pool.query<{ n: string }>('select count(*) as n from app.pedidos')).rows[0]?.n);

    const stage = async (label: string, openPerClient: number, explain: boolean) => {
      process.stderr.write(`${label}...\n`);
      for (let i = 0; i < WARM_UP; i++) await post();
      if (explain) {
        await pool.query('alter system set auto_explain.log_min_duration = 0');
        await pool.query('select pg_reload_conf()');
        // The reload reaches the idle backend before its next statement; let it arrive. Not on the
        // command line: that would outrank ALTER SYSTEM.
        await new Promise((resolve) => setTimeout(resolve, 500));
        capture = [];
        await post();
        await pool.query('alter system reset auto_explain.log_min_duration');
        await pool.query('select pg_reload_conf()');
        await new Promise((resolve) => setTimeout(resolve, 500));
        if (process.env.BENCH_HISTORY_LOG) writeFileSync(process.env.BENCH_HISTORY_LOG, capture.join('\n'));
        plans.push({ label, plan: lastStatementPlan(capture) });
        capture = null;
      }
      const cost = await measurePhase(pool, server.pid, async () => {
        for (let i = 0; i < ORDERS; i++) await post();
      });
      const { rows } = await pool.query<{ query: string; calls: number; blocks: number; exec_ms: number }>(
        `select query, calls::float8 as calls, total_exec_time as exec_ms,
                (shared_blks_hit + shared_blks_read + shared_blks_dirtied)::float8 as blocks
           from pg_stat_statements where toplevel and query not like '%pg_stat_statements%'`,
      );
      const last = rows.filter((r) => isLast(r.query));
      // BENCH_HISTORY_TOP=N: the N statements that touched the most blocks in the stage, on
      // stderr, to find what grows with the history.
      for (const r of [...rows]
        .sort((a, b) => b.blocks - a.blocks)
        .slice(0, Number(process.env.BENCH_HISTORY_TOP ?? 0)))
        process.stderr.write(
          `  ${(r.blocks / ORDERS).toFixed(1)} blocks/order, ${r.calls} calls: ${r.query.replace(/\s+/g, ' ').slice(0, 160)}\n`,
        );
      const sum = (xs: typeof rows, f: (r: (typeof rows)[number]) => number) => xs.reduce((a, r) => a + f(r), 0);
      stages.push({
        label: `${label} (${(await totalOrders()).toLocaleString('en')} orders)`,
        openPerClient,
        orders: ORDERS,
        statements: cost.calls / ORDERS,
        execMs: cost.execMs / ORDERS,
        blocks: sum(rows, (r) => r.blocks) / ORDERS,
        cpuMs: cost.processCpuMs / ORDERS,
        lastExecMs: sum(last, (r) => r.exec_ms) / ORDERS,
        lastBlocks: sum(last, (r) => r.blocks) / ORDERS,
      });
      // The stage's own orders are pending: closed, so the next stage's count is its own.
      await pool.query(CLOSE_OPEN, [clients]);
    };

    // The open orders are written in one statement a stage, where a distributor's come one at a
    // time over days: every table they moved is vacuumed and analyzed as autovacuum would have
    // left it (with the totals kept by trg_pedidos_abertos, each client's row took hundreds of
    // versions in that one statement).
    const settled = () => pool.query('vacuum analyze');
    await pool.query(CLOSE_OPEN, [clients]);
    await stage('0 open orders per client', 0, true);
    await pool.query(OPEN_ORDERS, [clients, 100, product]);
    await settled();
    await stage('100 open orders per client', 100, false);
    await pool.query(OPEN_ORDERS, [clients, 300, product]);
    await settled();
    await stage('400 open orders per client', 400, true);
    await pool.query(CLOSE_OPEN, [clients]);
    const now = await totalOrders();
    if (HISTORY_TOTAL > now) {
      process.stderr.write(`a year of orders, ${(HISTORY_TOTAL - now).toLocaleString('en')} more...\n`);
      await pool.query(YEAR, [HISTORY_TOTAL - now, clients, product]);
    }
    // A distributor's database is vacuumed and analyzed; the bulk load is not the orders' cost.
    await pool.query('vacuum analyze');
    await stage('0 open orders per client, a year of orders', 0, false);

    const base = stages[0] as Stage;
    const pct = (v: number, b: number) => `${v >= b ? '+' : ''}${((100 * (v - b)) / b).toFixed(0)} %`;
    const body = [
      `Command: \`pnpm bench orders --history\`. ${machine()}, ${new Date().toISOString().slice(0, 16)} UTC.`,
      `${ORDERS} orders of ${LINES} lines per stage, one at a time, after ${WARM_UP} more, 8 representatives of the`,
      '`small` fixture with credit (policy `' +
        (process.env.BENCH_CREDIT_POLICY ?? 'flag') +
        '`) and flex on (the first line of each order spends flex),',
      'the app in-process on one connection of the server role. Blocks: shared buffers hit, read or dirtied per',
      'order (pg_stat_statements), the figure that does not move with the machine; CPU: every PostgreSQL',
      "process's, per order. The last statement: the order's lines, history, key, documents and notices.",
      '',
      table(
        [
          'stage',
          'statements / order',
          'execution / order',
          'blocks / order',
          'PostgreSQL CPU / order',
          'last statement: execution',
          'last statement: blocks',
          'blocks vs first',
          'CPU vs first',
        ],
        stages.map((s) => [
          s.label,
          s.statements.toFixed(1),
          `${s.execMs.toFixed(2)} ms`,
          s.blocks.toFixed(0),
          `${s.cpuMs.toFixed(2)} ms`,
          `${s.lastExecMs.toFixed(2)} ms`,
          s.lastBlocks.toFixed(0),
          pct(s.blocks, base.blocks),
          pct(s.cpuMs, base.cpuMs),
        ]),
      ),
      '',
      ...plans.flatMap((p) => [`The last statement's plan at ${p.label}:`, '', '```', p.plan, '```', '']),
    ].join('\n');
    writeSection('orders-history', 'Orders: cost against the history (issue #51)', body);
    process.stdout.write(`${body}\n`);
  } finally {
    await serverPool?.end();
    await pool.end();
    await server.stop();
  }
}

/** The plan auto_explain logged for the order's last statement, from the server's log lines. */
function lastStatementPlan(lines: string[]): string {
  const out: string[] = [];
  let inPlan = false;
  let isOurs = false;
  let current: string[] = [];
  for (const line of lines) {
    if (/LOG:\s+duration: .* plan:/.test(line)) {
      if (inPlan && isOurs) out.push(...current);
      inPlan = true;
      isOurs = false;
      current = [];
      continue;
    }
    if (inPlan && /^\S.*(LOG|ERROR|WARNING|STATEMENT):/.test(line)) {
      if (isOurs) out.push(...current);
      inPlan = false;
      continue;
    }
    if (!inPlan) continue;
    if (/Query Text:.*with numero as/i.test(line)) isOurs = true;
    // The text and the parameters (the order's documents, kilobytes) are left out.
    if (!/Query Text:|Query Parameters:/.test(line)) current.push(line.replace(/^\t/, ''));
  }
  if (inPlan && isOurs) out.push(...current);
  return out.length ? out.join('\n') : '(auto_explain logged no plan for the last statement)';
}
