// POST /orders under concurrent load, against raw PostgreSQL doing the same writes in the
// same run: the ratio is what the API layer (HTTP, auth, validation, pricing, the ceiling
// check, idempotency) costs on top of the database's own limit on this machine.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLEX_SYNC_ENTRIES } from '@campo/shared';
import type pg from 'pg';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.ts';
import { createDb } from '../../server/src/db/kysely.ts';
import { createPool } from '../../server/src/db/pool.ts';
import { createErpFixture } from '../../server/src/erp-fixture/generate.ts';
import { grantServerRole } from '../../server/src/provisioning/grant.ts';
import { provision } from '../../server/src/provisioning/provision.ts';
import { refreshAll } from '../../server/src/sync/service.ts';
import { addUser } from '../../server/src/users/service.ts';
import { ownCpuMs, processCpuMs } from './cpu.ts';
import { measurePhase, PG_STAT_SETTINGS, type PhaseCost, shortQuery } from './pg-cost.ts';
import { table, writeSection } from './report.ts';
import { orderableCatalog } from './setup.ts';

const CONCURRENCY = 16;
/** The API's connections to PostgreSQL: twice this machine's cores, which PostgreSQL shares. */
const POOL_SIZE = 2 * availableParallelism();
/** BENCH_ORDERS_REQUESTS: fewer orders per phase on a busy machine. */
const REQUESTS = Number(process.env.BENCH_ORDERS_REQUESTS ?? 2000);
export const LINES = 5;
export const PASSWORD = 'bench-password-1';
/** Decided orders each representative already has before the run (see HISTORY_SQL). */
const HISTORY_PER_REP = 2500;
/**
 * Of them, the latest approved and not invoiced yet (the last two days'): the open orders a
 * client's credit counts. The older ones were invoiced, as a distributor's are.
 */
const OPEN_HISTORY = 48;
const CAMPO = fileURLToPath(new URL('../../server/bin/campo.mjs', import.meta.url));

export interface Rep {
  login: string;
  token: string;
  idEmpresa: number;
  codVendedor: number;
  clients: number[];
  products: number[];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Runs `total` jobs with `concurrency` workers; returns per-job latencies (ms) and the wall time. */
async function load(total: number, concurrency: number, job: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < total; i = next++) {
        const t = performance.now();
        await job(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rate: total / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export async function setUp(pool: pg.Pool, ownerUrl: string, historyPerRep = HISTORY_PER_REP) {
  await createErpFixture(pool, { scale: 'small' });
  await provision(pool, {});
  await pool.query(
    "do $$ begin create role campo_bench login password 'campo_bench'; exception when duplicate_object then null; end $$",
  );
  await grantServerRole(pool, 'campo_bench');
  // Credit and flex on (issue #40), as a distributor running them has: each tenant flags orders
  // beyond credit and lets a line go 5 points past its ceiling on the flex balance.
  await pool.query(
    `insert into app.config_empresa (id_empresa, politica_credito, flex_percentual_credito, flex_maximo_pontos)
     select distinct id_empresa, $1, 50, 5 from app.vw_vendedores
     on conflict (id_empresa) do update set politica_credito = excluded.politica_credito, flex_percentual_credito = 50,
                                            flex_maximo_pontos = 5`,
    [CREDIT_POLICY],
  );
  const reps = await pool.query<{ id_empresa: number; cod_vendedor: number }>(
    'select id_empresa, cod_vendedor from app.vw_vendedores order by id_empresa, cod_vendedor limit 8',
  );
  const db = createDb(pool);
  const out: Omit<Rep, 'token'>[] = [];
  for (const r of reps.rows) {
    const login = `bench${r.id_empresa}-${r.cod_vendedor}@bench.test`;
    await addUser(db, {
      login,
      name: login,
      role: 'representative',
      idEmpresa: r.id_empresa,
      codVendedor: r.cod_vendedor,
      password: PASSWORD,
    });
    const catalog = await orderableCatalog(
      pool,
      { idEmpresa: r.id_empresa, codVendedor: r.cod_vendedor },
      {
        clients: 20,
        products: 50,
      },
    );
    await pool.query(MONEY_SQL, [r.id_empresa, r.cod_vendedor, catalog.clients, CEILING]);
    await pool.query(HISTORY_SQL, [
      r.id_empresa,
      r.cod_vendedor,
      catalog.clients,
      historyPerRep,
      catalog.products,
      DOC,
    ]);
    out.push({
      login,
      idEmpresa: r.id_empresa,
      codVendedor: r.cod_vendedor,
      ...catalog,
    });
  }
  // The change log as a distributor's holds it (the scheduled refresh's documents, the clients'
  // among them), before the run's ANALYZE: otherwise each client's first order builds its
  // document whole, and the order's statements are planned on a change log without clients.
  for (const idEmpresa of new Set(out.map((r) => r.idEmpresa))) await refreshAll(db, idEmpresa);
  const serverUrl = new URL(ownerUrl);
  serverUrl.username = 'campo_bench';
  serverUrl.password = 'campo_bench';
  return { reps: out, serverUrl: serverUrl.toString() };
}

/** BENCH_CREDIT_POLICY=block: the same run under the policy that refuses (issue #51); `flag` otherwise. */
export const CREDIT_POLICY = process.env.BENCH_CREDIT_POLICY === 'block' ? 'block' : 'flag';

/** The ceiling every bench representative has; no discount rules. */
const CEILING = 5;

/**
 * Every order is accepted, as most are, and each spends and earns flex and passes a credit
 * check: the representative's one ceiling (no rules), a credit limit for each of its clients
 * that every order fits, and a flex balance no run exhausts, with the manager's adjustment
 * that gave it (the balance is always its ledger's sum).
 */
const MONEY_SQL = `
  with regras as (delete from app.regras_desconto where id_empresa = $1),
  categorias as (delete from vendedores_desc_categoria where id_empresa = $1 and cod_vendedor = $2),
  teto as (
    insert into app.limites_desconto_representante (id_empresa, cod_vendedor, categoria, perc_desc_max)
    values ($1, $2, null, $4)),
  limites as (
    insert into app.limites_credito (id_empresa, id_cliente, limite, atualizado_por)
    select $1, c, 100000000000, 'bench' from unnest($3::integer[]) c
    on conflict (id_empresa, id_cliente) do update set limite = excluded.limite),
  saldo as (
    insert into app.flex_saldos (id_empresa, cod_vendedor, saldo) values ($1, $2, 1000000000)),
  ajuste as (
    insert into app.flex_lancamentos (id_empresa, cod_vendedor, tipo, valor, motivo, criado_por)
    values ($1, $2, 'ajuste', 1000000000, 'Saldo do benchmark', 'bench'))
  select 1`;

/**
 * A representative's order history: `$4` decided orders of LINES lines over the past months,
 * each with its history entry, idempotency key and change-log revision, in one statement.
 * A distributor running Campo has one; without it every order table starts the run empty
 * and analyzed so, and each connection's generic plans scan them whole until autovacuum
 * analyzes them again (a minute later, after the run): the limit and the API alike read
 * every earlier order at each foreign-key, row-level-security and key check.
 */
const HISTORY_SQL = `
  with pedido as (
    insert into app.pedidos (id_empresa, num_ped_sar, cod_vendedor, situa, id_cliente, nome_cliente, end_entrega,
                             id_pauta, valor_bruto, valor_total, decidido_por, decidido_em, criado_em)
    select $1, app.proximo_num_ped_sar($1), $2, case when g <= ${OPEN_HISTORY} then 2 else 3 end,
           ($3::integer[])[1 + g % cardinality($3::integer[])], 'Cliente',
           'Rua 1, Centro', 1, 10, 10, 'bench', now() - g * interval '1 hour', now() - g * interval '1 hour'
      from generate_series(1, $4::integer) g
    returning id, criado_em),
  itens as (
    insert into app.pedido_itens (id_pedido, seq, id_empresa, id_produto, cod_produto, descricao, quantidade,
                                  preco_tabela, preco_unitario, perc_desconto, teto_desconto, id_pauta, valor_total)
    select p.id, s, $1, ($5::integer[])[1 + (p.id * ${LINES} + s) % cardinality($5::integer[])], 'X', 'Produto', 1,
           2, 2, 0, 5, 1, 2
      from pedido p, generate_series(1, ${LINES}) s),
  historico as (
    insert into app.pedido_status_historico (id_pedido, id_empresa, situa_para, usuario, criado_em)
    select id, $1, 1, 'bench', criado_em from pedido),
  chave as (
    insert into app.chaves_idempotencia (id_empresa, id_usuario, chave, rota, hash_requisicao, status_resposta,
                                         corpo_resposta, id_pedido, criado_em)
    select $1, 1, gen_random_uuid()::text, 'POST /orders', 'h', 201, convert_to($6, 'UTF8'), id, criado_em
      from pedido),
  revisoes as (
    insert into app.sync_alteracoes (id_empresa, colecao, chave, escopo, documento, hash, dados, revisao, xid, excluido)
    select $1, 'pedidos', p.id::text, $2, gen_random_uuid()::text, md5($6), $6, nextval('app.sync_revisao'),
           txid_current(), false
      from pedido p
    returning 1)
  select count(*) from revisoes`;

export function orderFor(rep: Omit<Rep, 'token'>, i: number) {
  return {
    idCliente: rep.clients[i % rep.clients.length] as number,
    itens: Array.from({ length: LINES }, (_, k) => ({
      idProduto: rep.products[(i * LINES + k) % rep.products.length] as number,
      quantidade: 1 + (k % 3),
      // The first line 2 points past its ceiling spends flex, the second sold above the list
      // earns it at approval; the rest at the list price.
      descontoPercent: k === 0 ? CEILING + 2 : k === 1 ? -2 : 0,
    })),
  };
}

/**
 * A stored answer or document of about the size of a 5-line order's. A space after each colon:
 * pgbench would read `:1` in its script as a variable.
 */
const DOC = JSON.stringify({
  pedido: Array.from({ length: LINES }, (_, k) => ({ seq: k + 1, descricao: 'Produto de referência', valor: 12.5 })),
  cliente: 'Cliente de referência Ltda',
})
  .replaceAll(':', ': ')
  .repeat(4);

/**
 * The representative's flex document (ajustes 'flex') an order that spends flex writes again:
 * the balance and the ledger's latest FLEX_SYNC_ENTRIES entries, as the API's.
 */
const FLEX_DOC = JSON.stringify({
  id: 'flex',
  empresa: null,
  tetos: null,
  flex: {
    codVendedor: 1,
    saldo: 999999.99,
    lancamentos: Array.from({ length: FLEX_SYNC_ENTRIES }, (_, i) => ({
      id: 100000 + i,
      codVendedor: 1,
      tipo: 'reserva',
      valor: -0.04,
      idPedido: 200000 + i,
      numPedSar: 300000 + i,
      motivo: null,
      criadoPor: 'bench1-1@bench.test',
      criadoEm: '2026-11-28T10 00 00.000Z',
    })),
  },
  _deleted: false,
}).replaceAll(':', ': ');

/**
 * The rows one accepted order writes (number, order, lines, history, idempotency key, the
 * change-log revisions of the order, its client and the representative's flex document, the
 * flex reservation's ledger entry and balance), with the locks it takes (the client's credit limit row, read with the client's open
 * orders; then the balance's advisory lock, in the API's order: the other would deadlock), in ONE
 * statement sent once through
 * the driver: one round trip and one implicit transaction, the physical limit of this machine
 * for the same writes. Without the change notice the API sends after its commit: a NOTIFY
 * inside the statement would hold PostgreSQL's notification lock across every commit's WAL
 * flush and serialise the limit itself.
 */
const RAW_ORDER = `
  with credito as (
    select l.limite,
           (select coalesce(sum(a.valor_total), 0) from app.pedidos a
             where a.id_empresa = $1 and a.id_cliente = $3 and a.situa in (1, 2)) as abertos
      from app.limites_credito l
     where l.id_empresa = $1 and l.id_cliente = $3
       for update of l),
  trava as (
    select c.*, pg_advisory_xact_lock(hashtextextended(concat('campo.flex:', $1::integer, ':', $2::integer), 0))
      from credito c),
  pedido as (
    insert into app.pedidos (id_empresa, num_ped_sar, cod_vendedor, id_cliente, nome_cliente, end_entrega, id_pauta,
                             valor_bruto, valor_total, flex_usado, flex_gerado, credito_limite, credito_aberto,
                             credito_disponivel)
    select $1, app.proximo_num_ped_sar($1), $2, $3, 'Cliente', 'Rua 1, Centro', 1, 10, 10, 0.04, 0.02, c.limite,
           c.abertos, c.limite - c.abertos
      from trava c
    returning id),
  reserva as (
    insert into app.flex_lancamentos (id_empresa, cod_vendedor, tipo, valor, id_pedido, criado_por)
    select $1, $2, 'reserva', -0.04, id, 'bench' from pedido),
  debito as (
    update app.flex_saldos set saldo = saldo - 0.04, atualizado_em = now()
     where id_empresa = $1 and cod_vendedor = $2 and saldo >= 0.04),
  itens as (
    insert into app.pedido_itens (id_pedido, seq, id_empresa, id_produto, cod_produto, descricao, quantidade,
                                  preco_tabela, preco_unitario, perc_desconto, teto_desconto, id_pauta, valor_total)
    select p.id, l.seq, $1, l.id_produto, 'X', 'Produto', l.quantidade, 2, 2, 0, ${CEILING}, 1, 2
      from pedido p, unnest($4::integer[], $5::numeric[]) with ordinality as l(id_produto, quantidade, seq)),
  historico as (
    insert into app.pedido_status_historico (id_pedido, id_empresa, situa_para, usuario)
    select id, $1, 1, 'bench' from pedido),
  chave as (
    insert into app.chaves_idempotencia (id_empresa, id_usuario, chave, rota, hash_requisicao, status_resposta,
                                         corpo_resposta, id_pedido)
    select $1, 1, $6, 'POST /orders', 'h', 201, convert_to($7, 'UTF8'), id from pedido),
  revisoes as (
    insert into app.sync_alteracoes (id_empresa, colecao, chave, escopo, documento, hash, dados, revisao, xid, excluido)
    select $1, d.colecao, d.chave, $2, d.documento, md5(d.dados), d.dados, nextval('app.sync_revisao'), txid_current(), false
      from pedido p
     cross join lateral (values ('pedidos', p.id::text, $6, $7), ('clientes', concat($3, '@', $2), $3::text, $7),
                                ('ajustes', concat('flex@', $2::integer), 'flex', $8))
           as d(colecao, chave, documento, dados)
    on conflict (id_empresa, colecao, chave) do update
       set hash = excluded.hash, dados = excluded.dados, revisao = excluded.revisao, xid = excluded.xid
    returning 1)
  select count(*) from revisoes`;

/**
 * The true limit (issue #51): the business work of an order alone, in one statement and one
 * round trip. The order (its number drawn), its lines, its idempotency key with the stored
 * answer, and the credit check: the client's limit row locked, its open receivables (the
 * ERP's open titles, as vw_clientes sums them) and its open Campo orders summed, the figures
 * written into the order. No history entry, no flex, no change-log rows, no documents, no
 * notices: those are Campo's bookkeeping, which RAW_ORDER adds and the API pays, measured
 * against this.
 */
const TRUE_LIMIT = `
  with credito as (
    select l.limite,
           (select coalesce(sum(t.valor_em_aberto), 0) from app.vw_titulos_abertos t where t.id_cliente = $3) as titulos,
           (select coalesce(sum(a.valor_total), 0) from app.pedidos a
             where a.id_empresa = $1 and a.id_cliente = $3 and a.situa in (1, 2)) as abertos
      from app.limites_credito l
     where l.id_empresa = $1 and l.id_cliente = $3
       for update of l),
  pedido as (
    insert into app.pedidos (id_empresa, num_ped_sar, cod_vendedor, id_cliente, nome_cliente, end_entrega, id_pauta,
                             valor_bruto, valor_total, credito_limite, credito_aberto, credito_disponivel)
    select $1, app.proximo_num_ped_sar($1), $2, $3, 'Cliente', 'Rua 1, Centro', 1, 10, 10, c.limite,
           c.titulos + c.abertos, c.limite - c.titulos - c.abertos
      from credito c
    returning id),
  itens as (
    insert into app.pedido_itens (id_pedido, seq, id_empresa, id_produto, cod_produto, descricao, quantidade,
                                  preco_tabela, preco_unitario, perc_desconto, teto_desconto, id_pauta, valor_total)
    select p.id, l.seq, $1, l.id_produto, 'X', 'Produto', l.quantidade, 2, 2, 0, ${CEILING}, 1, 2
      from pedido p, unnest($4::integer[], $5::numeric[]) with ordinality as l(id_produto, quantidade, seq)),
  chave as (
    insert into app.chaves_idempotencia (id_empresa, id_usuario, chave, rota, hash_requisicao, status_resposta,
                                         corpo_resposta, id_pedido)
    select $1, 1, $6, 'POST /orders', 'h', 201, convert_to($7, 'UTF8'), id from pedido)
  select count(*) from pedido`;

/** The parameters TRUE_LIMIT and RAW_ORDER share: the same order's rows for both. */
function orderParams(rep: Omit<Rep, 'token'>, i: number): unknown[] {
  const order = orderFor(rep, i);
  return [
    rep.idEmpresa,
    rep.codVendedor,
    order.idCliente,
    order.itens.map((l) => l.idProduto),
    order.itens.map((l) => l.quantidade),
    randomUUID(),
    DOC,
  ];
}

function trueLimitOrder(pool: pg.Pool, rep: Omit<Rep, 'token'>, i: number): Promise<unknown> {
  return pool.query(TRUE_LIMIT, orderParams(rep, i));
}

function rawOrder(pool: pg.Pool, rep: Omit<Rep, 'token'>, i: number): Promise<unknown> {
  return pool.query(RAW_ORDER, [...orderParams(rep, i), FLEX_DOC]);
}

/**
 * RAW_ORDER as a pgbench script for one representative: the same statement with the same
 * values, its client and products drawn by pgbench, the key made by PostgreSQL (one more
 * CTE, a few microseconds). pgbench is a C client that costs next to nothing, so on two
 * shared cores it leaves PostgreSQL more of them than this process's driver does: the
 * cheapest way this machine can send the order's writes.
 */
function pgbenchScript(rep: Omit<Rep, 'token'>, statement = RAW_ORDER): string {
  const ints = (xs: number[]) => `'{${xs.join(',')}}'::integer[]`;
  const picks = Array.from({ length: LINES }, (_, k) => `\\set p${k} random(1, ${rep.products.length})`);
  const products = Array.from({ length: LINES }, (_, k) => `(${ints(rep.products)})[:p${k}]`).join(', ');
  const quantities = Array.from({ length: LINES }, (_, k) => 1 + (k % 3)).join(', ');
  if (!/^\s*with /.test(statement)) throw new Error('pgbench script: the statement must start with its CTEs');
  const sql = statement
    .replace(/^\s*with /, 'with k as (select gen_random_uuid()::text as chave), ')
    .replace('$4::integer[], $5::numeric[]', `array[${products}]::integer[], array[${quantities}]::numeric[]`)
    .replaceAll('$1', String(rep.idEmpresa))
    .replaceAll('$2', String(rep.codVendedor))
    .replaceAll('$3', `(${ints(rep.clients)})[:c]`)
    .replaceAll('$6', '(select chave from k)')
    .replaceAll('$7', `'${DOC}'`)
    .replaceAll('$8', `'${FLEX_DOC}'`);
  if (/\$\d/.test(sql)) throw new Error('pgbench script: a parameter left in the statement');
  return [`\\set c random(1, ${rep.clients.length})`, ...picks, `${sql.trim()};`, ''].join('\n');
}

/**
 * Runs a C client of this bench (pgbench, wrk): its output and the CPU it used (bash's `times`
 * prints its children's), or null when it is not installed.
 */
function runTimed(command: string, args: string[], env: Record<string, string> = {}) {
  const run = spawnSync('bash', ['-c', `${command} "$@" && times`, command, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  if (run.error || run.status === 127) return null;
  if (run.status !== 0) throw new Error(`${command} failed: ${run.stderr}`);
  const times = /\n(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(run.stdout);
  if (!times) throw new Error(`${command}: no CPU times in its output\n${run.stdout}`);
  const cpuMs = (Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4])) * 1000;
  return { stdout: run.stdout, cpuMs };
}

/**
 * Runs pgbench: `transactions` orders from CONCURRENCY connections, each a random
 * representative's script. Returns its rate, latencies (from its per-transaction log) and
 * its own CPU, or null when pgbench is not installed (Debian: postgresql-client).
 */
let pgbenchRuns = 0;

function runPgbench(
  url: string,
  dir: string,
  reps: Omit<Rep, 'token'>[],
  transactions: number,
  clients: number,
  statement = RAW_ORDER,
) {
  const scripts = reps.map((rep, i) => {
    const file = join(dir, `order-${i}.sql`);
    writeFileSync(file, pgbenchScript(rep, statement));
    return file;
  });
  const prefix = join(dir, `log-${++pgbenchRuns}-${transactions}-${clients}`);
  const args = [
    '--no-vacuum',
    '--protocol=prepared',
    `--client=${clients}`,
    '--jobs=1',
    `--transactions=${Math.ceil(transactions / clients)}`,
    '--log',
    `--log-prefix=${prefix}`,
    ...scripts.flatMap((f) => ['-f', `${f}@1`]),
    url,
  ];
  const run = runTimed('pgbench', args, { PGCLIENTENCODING: 'UTF8' });
  if (!run) return null;
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(run.stdout);
  if (!tps) throw new Error(`pgbench: unexpected output\n${run.stdout}`);
  // Each log line: client, transaction, latency (µs), script, epoch s, µs.
  const latencies = readdirSync(dir)
    .filter((f) => f.startsWith(basename(prefix)))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n'))
    .map((line) => Number(line.split(' ')[2]) / 1000)
    .sort((a, b) => a - b);
  return {
    rate: Number(tps[1]),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    orders: latencies.length,
    cpuMs: run.cpuMs,
  };
}

/**
 * POST /orders from wrk, a C load generator, for `seconds`: the representatives' tokens and
 * bodies are written into its Lua script, every request with a key of its own. Like pgbench
 * for the limit, it leaves the server and PostgreSQL nearly the whole machine, where this
 * process's fetch took 0.6 ms of CPU per order from the same two cores. Returns its rate,
 * latencies, the orders created and its own CPU, or null when wrk is not installed (Debian:
 * apt-get install wrk).
 */
function runWrk(base: string, reps: Rep[], seconds: number, run: string) {
  const dir = mkdtempSync(join(tmpdir(), 'campo-wrk-'));
  try {
    const lua = (text: string) => `[==[${text}]==]`;
    const table = reps
      .map(
        (rep) =>
          `{ token = ${lua(rep.token)}, bodies = { ${Array.from({ length: 64 }, (_, i) =>
            lua(JSON.stringify(orderFor(rep, i))),
          ).join(', ')} } }`,
      )
      .join(',\n');
    const script = join(dir, 'orders.lua');
    writeFileSync(
      script,
      `local reps = {\n${table}\n}
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end
function init(args)
  sent, created, failed = 0, 0, 0
end
function request()
  sent = sent + 1
  local rep = reps[sent % #reps + 1]
  return wrk.format("POST", "${new URL(base).pathname}/orders", {
    ["Authorization"] = "Bearer " .. rep.token,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = string.format("${run}-%d-%d", tid, sent),
  }, rep.bodies[math.floor(sent / #reps) % #rep.bodies + 1])
end
function response(status, headers, body)
  if status == 201 then created = created + 1 else failed = failed + 1 end
end
function done(summary, latency, requests)
  local c, f = 0, 0
  for _, t in ipairs(threads) do c = c + t:get("created"); f = f + t:get("failed") end
  io.write(string.format("campo %d %d %d %d %d\\n", summary.duration, c, f,
    latency:percentile(50), latency:percentile(99)))
end
`,
    );
    const args = ['--threads=1', `--connections=${CONCURRENCY}`, `--duration=${seconds}s`, '--script', script, base];
    const ran = runTimed('wrk', args);
    if (!ran) return null;
    const m = /campo (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(ran.stdout);
    if (!m) throw new Error(`wrk: unexpected output\n${ran.stdout}`);
    const [durationUs, created, failed, p50, p99] = m.slice(1).map(Number) as [number, number, number, number, number];
    return { rate: (created * 1e6) / durationUs, p50: p50 / 1000, p99: p99 / 1000, failed, cpuMs: ran.cpuMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Per-order figures of a phase: rate and latency, and what it cost PostgreSQL. */
function perOrder(cost: PhaseCost, orders: number) {
  return {
    statements: cost.calls / orders,
    planMs: cost.planMs / orders,
    execMs: cost.execMs / orders,
    cpuMs: cost.processCpuMs / orders,
  };
}

export async function benchOrders(): Promise<void> {
  // BENCH_PORT_BASE pins PostgreSQL's port (and the API's, the next one) on a shared machine.
  const portBase = Number(process.env.BENCH_PORT_BASE ?? 0);
  const server = await startEmbeddedPostgres({ settings: PG_STAT_SETTINGS, port: portBase });
  const admin = createPool(server.url(), 1);
  await admin.query("create database erp encoding 'LATIN1' lc_collate 'C' lc_ctype 'C' template template0");
  await admin.end();
  const pool = createPool(server.url('erp'), CONCURRENCY);
  let child: ReturnType<typeof spawn> | undefined;
  try {
    process.stderr.write('setting up the small fixture...\n');
    const { reps, serverUrl } = await setUp(pool, server.url('erp'));
    await pool.query('analyze');

    process.stderr.write('the true limit: the business work alone, one statement per order...\n');
    await load(200, CONCURRENCY, (i) => trueLimitOrder(pool, reps[i % reps.length] as Rep, i).then(() => undefined));
    let truth = { rate: 0, p50: 0, p99: 0 };
    const truthCost = await measurePhase(pool, server.pid, async () => {
      truth = await load(REQUESTS, CONCURRENCY, (i) =>
        trueLimitOrder(pool, reps[i % reps.length] as Rep, i).then(() => undefined),
      );
    });
    const truthDir = mkdtempSync(join(tmpdir(), 'campo-pgbench-'));
    let truthBench = { rate: 0, p50: 0, p99: 0, orders: 0, cpuMs: 0 };
    let truthBenchCost: PhaseCost | null = null;
    try {
      if (runPgbench(server.url('erp'), truthDir, reps, 200, CONCURRENCY, TRUE_LIMIT)) {
        truthBenchCost = await measurePhase(pool, server.pid, async () => {
          truthBench = runPgbench(server.url('erp'), truthDir, reps, REQUESTS, CONCURRENCY, TRUE_LIMIT) ?? truthBench;
        });
      }
    } finally {
      rmSync(truthDir, { recursive: true, force: true });
    }

    process.stderr.write('raw PostgreSQL, one statement per order...\n');
    await load(200, CONCURRENCY, (i) => rawOrder(pool, reps[i % reps.length] as Rep, i).then(() => undefined));
    let raw = { rate: 0, p50: 0, p99: 0 };
    const rawCost = await measurePhase(pool, server.pid, async () => {
      raw = await load(REQUESTS, CONCURRENCY, (i) =>
        rawOrder(pool, reps[i % reps.length] as Rep, i).then(() => undefined),
      );
    });

    process.stderr.write('raw PostgreSQL, the same statement through pgbench...\n');
    const pgbenchDir = mkdtempSync(join(tmpdir(), 'campo-pgbench-'));
    let bench = { rate: 0, p50: 0, p99: 0, orders: 0, cpuMs: 0 };
    let benchCost: PhaseCost | null = null;
    // The same statement from as many connections as the API keeps (fewer backends than
    // clients share two cores better): the limit is the faster of the two.
    let benchPool = bench;
    let benchPoolCost: PhaseCost | null = null;
    try {
      if (runPgbench(server.url('erp'), pgbenchDir, reps, 200, CONCURRENCY)) {
        benchCost = await measurePhase(pool, server.pid, async () => {
          bench = runPgbench(server.url('erp'), pgbenchDir, reps, REQUESTS, CONCURRENCY) ?? bench;
        });
        benchPoolCost = await measurePhase(pool, server.pid, async () => {
          benchPool = runPgbench(server.url('erp'), pgbenchDir, reps, REQUESTS, POOL_SIZE) ?? benchPool;
        });
      } else {
        process.stderr.write(
          'pgbench is not installed (Debian: apt-get install postgresql-client): its row is left out\n',
        );
      }
    } finally {
      rmSync(pgbenchDir, { recursive: true, force: true });
    }

    // BENCH_CPU_PROF=<dir>: a V8 CPU profile of the server, written when it stops.
    const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    child = spawn(process.execPath, [...prof, CAMPO, 'serve'], {
      env: {
        ...process.env,
        DATABASE_URL: serverUrl,
        PORT: portBase ? String(portBase + 1) : '0',
        HOST: '127.0.0.1',
        JWT_SECRET: 'b'.repeat(40),
        LOG_LEVEL: 'info',
        // Sized as docs/deployment.md tells operators: about twice the database's cores.
        DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? String(POOL_SIZE),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child?.stdout?.on('data', (d: Buffer) => {
        const m = /"port":(\d+)/.exec(d.toString());
        if (m) resolve(Number(m[1]));
      });
      child?.once('exit', (code) => reject(new Error(`campo serve exited with ${code}`)));
    });
    const base = `http://127.0.0.1:${port}/api/v1`;
    const withTokens: Rep[] = [];
    for (const r of reps) {
      const res = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: r.login, password: PASSWORD }),
      });
      withTokens.push({ ...r, token: ((await res.json()) as { token: string }).token });
    }
    const post = async (i: number) => {
      const rep = withTokens[i % withTokens.length] as Rep;
      const res = await fetch(`${base}/orders`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${rep.token}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify(orderFor(rep, i)),
      });
      await res.arrayBuffer();
      return res.status;
    };
    process.stderr.write('POST /orders...\n');
    // Warm-up: JIT, connection pool, plan caches.
    await load(200, CONCURRENCY, async (i) => {
      await post(i);
    });
    let failures = 0;
    let api = { rate: 0, p50: 0, p99: 0 };
    // Where the machine's cores go: the server's process and this one (the load) besides PostgreSQL.
    const serverCpuBefore = processCpuMs(child.pid as number);
    const loadCpuBefore = ownCpuMs();
    const apiCost = await measurePhase(pool, server.pid, async () => {
      api = await load(REQUESTS, CONCURRENCY, async (i) => {
        if ((await post(REQUESTS + i)) !== 201) failures++;
      });
    });
    const serverCpuMs = (processCpuMs(child.pid as number) - serverCpuBefore) / REQUESTS;
    const loadCpuMs = (ownCpuMs() - loadCpuBefore) / REQUESTS;

    process.stderr.write('POST /orders through wrk...\n');
    // About as many orders as the run above: its rate sets wrk's duration.
    const seconds = Math.max(3, Math.ceil(REQUESTS / api.rate));
    const ordersNow = async () => Number((await pool.query('select count(*) as n from app.pedidos')).rows[0].n);
    // Orders counted in the database: wrk does not count those in flight when it stops.
    const before = { orders: await ordersNow(), serverCpuMs: processCpuMs(child.pid as number) };
    const viaWrk: { run: (NonNullable<ReturnType<typeof runWrk>> & { orders: number; serverCpuMs: number }) | null } = {
      run: null,
    };
    const wrkCost = await measurePhase(pool, server.pid, async () => {
      const ran = runWrk(base, withTokens, seconds, randomUUID());
      if (!ran) return;
      const orders = (await ordersNow()) - before.orders;
      viaWrk.run = { ...ran, orders, serverCpuMs: (processCpuMs(child?.pid as number) - before.serverCpuMs) / orders };
    });
    const wrk = viaWrk.run;
    if (!wrk) process.stderr.write('wrk is not installed (Debian: apt-get install wrk): its row is left out\n');
    const ms = (v: number) => `${v.toFixed(2)} ms`;
    const phaseRow = (name: string, run: typeof raw, cost: PhaseCost, orders: number) => {
      const c = perOrder(cost, orders);
      return {
        rate: run.rate,
        cpuMs: c.cpuMs,
        cells: [
          name,
          run.rate.toFixed(0),
          ms(run.p50),
          ms(run.p99),
          c.statements.toFixed(1),
          ms(c.planMs),
          ms(c.execMs),
          ms(c.cpuMs),
        ],
      };
    };
    const truths = [phaseRow('true limit: the business work alone, through node-pg', truth, truthCost, REQUESTS)];
    if (truthBenchCost)
      truths.push(
        phaseRow('true limit: the business work alone, through pgbench', truthBench, truthBenchCost, truthBench.orders),
      );
    const trueLimit = truths.reduce((best, l) => (l.rate > best.rate ? l : best));
    const limits = [phaseRow('raw PostgreSQL, one statement through node-pg', raw, rawCost, REQUESTS)];
    if (benchCost)
      limits.push(phaseRow('raw PostgreSQL, the same statement through pgbench', bench, benchCost, bench.orders));
    if (benchPoolCost)
      limits.push(
        phaseRow(`raw PostgreSQL, pgbench from ${POOL_SIZE} connections`, benchPool, benchPoolCost, benchPool.orders),
      );
    // The true limit is the cheaper way of sending the same writes: the faster of the two.
    const limit = limits.reduce((best, l) => (l.rate > best.rate ? l : best));
    const apis = [phaseRow("POST /orders, from this process's fetch", api, apiCost, REQUESTS)];
    if (wrk) apis.push(phaseRow('POST /orders, from wrk', wrk, wrkCost, wrk.orders));
    // Like the limit's: the faster of the two ways of sending the same requests.
    const apiRow = apis.reduce((best, a) => (a.rate > best.rate ? a : best));
    const body = [
      `Command: \`pnpm bench orders\`. ${REQUESTS} orders of ${LINES} lines, ${CONCURRENCY} concurrent clients, 8`,
      `representatives with credit and flex on (issue #40: each client has a credit limit, policy \`${CREDIT_POLICY}\`; each`,
      `order's first line is ${CEILING + 2} % on a ${CEILING} % ceiling, paid from the flex balance, its second 2 % above the list),`,
      'of the `small` fixture, PostgreSQL 18 with durable settings and pg_stat_statements',
      `(planning tracked). Each representative has ${HISTORY_PER_REP} decided orders before the run (${OPEN_HISTORY} of them approved and not invoiced; lines,`,
      'history, keys, change-log revisions), analyzed, as a distributor using Campo has: from empty tables,',
      'every connection planned scans of them whole and kept those plans for the run. The API runs as',
      `\`campo serve\` in its own process (server role bound by row-level security), with ${POOL_SIZE} connections to`,
      "PostgreSQL (`DATABASE_POOL_SIZE`: twice the cores, as docs/deployment.md advises); it sends an order's six",
      'statements in two round trips, each with one Sync (BEGIN, the scope and the context read; the order, the rest',
      'and COMMIT). The true limit (issue #51) is the business work alone in one statement, one round trip: the',
      'order (its number drawn), its lines, its idempotency key, and the credit check (the limit row locked, the open',
      "titles and open orders summed); no history, flex, change log, documents or notices. The 'raw PostgreSQL'",
      "rows add Campo's bookkeeping to it in the same one statement: they write the rows an accepted order writes (number, order, lines, history, idempotency key,",
      "the change-log revisions of the order, its client and the representative's flex document, the flex",
      "reservation's ledger entry and balance), with the locks it takes (the client's credit row, read with its",
      "open orders; the balance's advisory lock), in one statement per",
      'order, one round trip, one transaction: sent through the driver from this process, and as a pgbench script',
      `(a C client, prepared, the same ${CONCURRENCY} connections, and from ${POOL_SIZE} as the API's), which leaves PostgreSQL more of the two cores. The change`,
      'notice the API sends after its commit is left out of the limit. The API gets the same requests from this',
      "process's fetch and from wrk (a C load generator, one thread, the same 16 connections, for about as many",
      "orders), which leaves the server and PostgreSQL more of the two cores. Ratios are the faster API's against",
      'the faster true limit, and against the faster raw row (business work and bookkeeping in one statement).',
      '',
      table(
        [
          '',
          'orders/s',
          'p50',
          'p99',
          'statements / order',
          'planning / order',
          'execution / order',
          'PostgreSQL CPU / order',
        ],
        [
          ...truths.map((l) => l.cells),
          ...limits.map((l) => l.cells),
          ...apis.map((a) => a.cells),
          [
            'ratio to the true limit',
            `${((100 * apiRow.rate) / trueLimit.rate).toFixed(1)} %`,
            '',
            '',
            '',
            '',
            '',
            `${(apiRow.cpuMs / trueLimit.cpuMs).toFixed(1)} ×`,
          ],
          [
            'ratio to raw with bookkeeping',
            `${((100 * apiRow.rate) / limit.rate).toFixed(1)} %`,
            '',
            '',
            '',
            '',
            '',
            `${(apiRow.cpuMs / limit.cpuMs).toFixed(1)} ×`,
          ],
        ],
      ),
      '',
      'Planning and execution: pg_stat_statements totals over the run, divided by the orders. PostgreSQL CPU:',
      'user + system time Linux charged to every PostgreSQL process during the run (backends and background',
      'workers), divided by the orders; statements include the authentication lookup and whatever the server',
      'ran in the background meanwhile (push worker, scheduled refreshes), and leave out the BEGIN and COMMIT',
      'the API sends in its batches (pg_stat_statements does not count them there).',
      '',
      `CPU per order besides PostgreSQL's, during the fetch run: the API server ${ms(serverCpuMs)}, the load generator`,
      `(this process's fetch) ${ms(loadCpuMs)}. All three share the machine's ${cpus().length} cores.`,
      wrk
        ? `During the wrk run: the API server ${ms(wrk.serverCpuMs)}, wrk ${ms(wrk.cpuMs / wrk.orders)} (${wrk.orders} orders in ${seconds} s).`
        : 'wrk is not installed: its row is left out.',
      benchCost
        ? `pgbench's own CPU per order, for its row: ${ms(bench.cpuMs / bench.orders)}.`
        : 'pgbench is not installed: its row is left out.',
      '',
      "Campo's bookkeeping apart (issue #51): in SQL alone, the raw row over the true limit through node-pg,",
      `${ms(perOrder(rawCost, REQUESTS).cpuMs - perOrder(truthCost, REQUESTS).cpuMs)} of PostgreSQL CPU per order; in the API, everything over the true limit`,
      `(bookkeeping, the checks' reads, the scope, the round trips), ${ms(apiRow.cpuMs - trueLimit.cpuMs)} per order, in ${(
        perOrder(apiCost, REQUESTS).statements - perOrder(truthCost, REQUESTS).statements
      ).toFixed(1)} more statements.`,
      '',
      `Targets (issue #51): PostgreSQL CPU per order at most 2 × the true limit's, orders/s at least 35 % of it, p99 under 50 ms. Failed requests: ${failures + (wrk?.failed ?? 0)}.`,
      '',
      "The API's statements during the fetch run, costliest first (per order):",
      '',
      table(
        ['statement', 'calls', 'planning', 'execution'],
        apiCost.statements
          .slice(0, 12)
          .map((s) => [
            shortQuery(s.query),
            (s.calls / REQUESTS).toFixed(2),
            ms(s.planMs / REQUESTS),
            ms(s.execMs / REQUESTS),
          ]),
      ),
    ].join('\n');
    writeSection('orders', 'Orders: POST /orders against raw PostgreSQL', body);
    process.stdout.write(`${body}\n`);
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await pool.end();
    await server.stop();
  }
}
