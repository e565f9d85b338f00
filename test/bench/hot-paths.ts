// `pnpm bench hot-paths` (issue #51): the hot paths besides the order, each against its true
// limit in the same run. The true limit is the business work alone, in one statement sent in one
// round trip: a supervisor's approval (the order's situa update, and the ERP rows its trigger
// writes), a visit's check-in (the visit row), a manager's flex adjustment (the balance and the
// ledger entry), a device's push of 50 funnel cards (the 50 rows). Campo's operation goes through
// the app (in-process, on the server role's pool) as a client calls it. What Campo does beyond the
// limit (its checks' reads, the scope, the change log's documents, the notices) is reported as the
// difference: statements and shared blocks per operation (pg_stat_statements, independent of the
// machine's speed) beside PostgreSQL CPU and time (indicative on a shared machine).
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@campo/shared';
import type pg from 'pg';
import { createDb } from '../../server/src/db/kysely.ts';
import { refreshAll } from '../../server/src/sync/service.ts';
import { clusterCpuMs } from './cpu.ts';
import { measurePhase, PG_STAT_SETTINGS, shortQuery } from './pg-cost.ts';
import { table, writeSection } from './report.ts';
import { orderableCatalog, percentile, withBenchErp } from './setup.ts';

/** BENCH_HOT_OPS: operations per line (approvals, check-ins, adjustments). */
const OPS = Number(process.env.BENCH_HOT_OPS ?? 300);
/** BENCH_HOT_PUSHES: pushes of CARDS documents each. */
const PUSHES = Number(process.env.BENCH_HOT_PUSHES ?? 60);
const CARDS = 50;
/** Operations at once: the superuser pool withBenchErp gives the limits has 4 connections. */
const CONCURRENCY = 4;
const WARM_UP = 40;
const PUSH_WARM_UP = 5;
const LINES = 5;

/**
 * Marks the set-up statements run between a phase's rounds, left out of its figures: inside the
 * statement, as pg_stat_statements drops a leading comment.
 */
const BETWEEN = '/* bench:between */';

interface Figures {
  ops: number;
  rate: number;
  p50: number;
  p99: number;
  statements: number;
  blocks: number;
  execMs: number;
  cpuMs: number;
  /** Change-log revisions drawn per operation: the documents written (a document unchanged may draw one too). */
  documents: number;
  top: { query: string; calls: number; blocks: number; execMs: number }[];
}

/**
 * Runs `total` operations, `concurrency` at once, in rounds of `round` (all of them when not
 * given) with `between` run after each round but the last; measures the operations alone: the
 * rounds' wall time, PostgreSQL's CPU without what `between` cost, pg_stat_statements without the
 * statements marked BETWEEN.
 */
async function measureOps(
  pool: pg.Pool,
  pid: number,
  o: {
    total: number;
    concurrency: number;
    job: (i: number) => Promise<void>;
    round?: number;
    between?: () => Promise<void>;
  },
): Promise<Figures> {
  const latencies: number[] = [];
  let seconds = 0;
  let betweenCpu = 0;
  const revision = async () =>
    Number((await pool.query<{ r: string }>(`select last_value ${BETWEEN} as r from app.sync_revisao`)).rows[0]?.r);
  const from = await revision();
  const cost = await measurePhase(pool, pid, async () => {
    const round = o.round ?? o.total;
    for (let start = 0; start < o.total; start += round) {
      const end = Math.min(o.total, start + round);
      let next = start;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: Math.min(o.concurrency, end - start) }, async () => {
          for (let i = next++; i < end; i = next++) {
            const t = performance.now();
            await o.job(i);
            latencies.push(performance.now() - t);
          }
        }),
      );
      seconds += (performance.now() - t0) / 1000;
      if (o.between && end < o.total) {
        const c0 = clusterCpuMs(pid);
        await o.between();
        betweenCpu += clusterCpuMs(pid) - c0;
      }
    }
  });
  // The documents written: each draws a revision of the change log's sequence.
  const documents = (await revision()) - from;
  const { rows } = await pool.query<{ query: string; calls: number; blocks: number; exec_ms: number }>(
    `select query, calls::float8 as calls, total_exec_time as exec_ms,
            (shared_blks_hit + shared_blks_read + shared_blks_dirtied)::float8 as blocks
       from pg_stat_statements
      where toplevel and query not like '%pg_stat_statements%' and query not like '%bench:between%'
      order by blocks desc`,
  );
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((a, r) => a + f(r), 0);
  latencies.sort((a, b) => a - b);
  const n = o.total;
  return {
    ops: n,
    rate: n / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statements: sum((r) => r.calls) / n,
    blocks: sum((r) => r.blocks) / n,
    execMs: sum((r) => r.exec_ms) / n,
    cpuMs: (cost.processCpuMs - betweenCpu) / n,
    documents: documents / n,
    top: rows.map((r) => ({ query: r.query, calls: r.calls / n, blocks: r.blocks / n, execMs: r.exec_ms / n })),
  };
}

/** The approval's true limit: the order's decision; trg_pedido_aprovado writes the ERP's rows. */
const APPROVE_LIMIT = `
  update app.pedidos set situa = 2, decidido_por = 'bench', decidido_em = now(), atualizado_em = now()
   where id_empresa = $1 and id = $2 and situa = 1`;

/** The check-in's true limit: the visit row, its distance computed by the caller. */
const CHECK_IN_LIMIT = `
  insert into app.visitas (id_empresa, chave, cod_vendedor, id_cliente, data, entrada_em, latitude, longitude,
                           precisao_m, distancia_m)
  values ($1, $2, $3, $4, (now() at time zone 'America/Sao_Paulo')::date, now(), $5, $6, 10, 120)`;

/** Between two rounds of check-ins: every visit left open is closed, a minute after it began. */
const CLOSE_VISITS = `update app.visitas ${BETWEEN} set saida_em = entrada_em + interval '1 minute', saida_recebida_em = now()
   where id_empresa = $1 and saida_em is null`;

/** The adjustment's true limit: the balance moved and the ledger's entry, one statement. */
const ADJUST_LIMIT = `
  with saldo as (
    insert into app.flex_saldos as s (id_empresa, cod_vendedor, saldo) values ($1, $2, $3)
    on conflict (id_empresa, cod_vendedor) do update set saldo = s.saldo + excluded.saldo, atualizado_em = now()
    returning 1)
  insert into app.flex_lancamentos (id_empresa, cod_vendedor, tipo, valor, motivo, criado_por)
  select $1, $2, 'ajuste', $3, $4, 'bench' from saldo`;

/** The push's true limit: the 50 cards' rows in one insert. */
const PUSH_LIMIT = `
  insert into app.oportunidades (id, id_empresa, cod_vendedor, id_cliente, estagio, valor, observacoes, criado_em,
                                 atualizado_em)
  select c.id, $1, $2, c.id_cliente, 'lead', c.valor, c.observacoes, now(), now()
    from unnest($3::uuid[], $4::integer[], $5::numeric[], $6::text[]) as c(id, id_cliente, valor, observacoes)`;

interface Line {
  name: string;
  unit: string;
  campo: Figures;
  limit: Figures;
  failures: number;
}

export async function benchHotPaths(): Promise<void> {
  const loadAtStart = loadavg()[0] ?? 0;
  await withBenchErp(
    'small',
    async (erp) => {
      const { pool, app, who, postmasterPid: pid } = erp;
      const idEmpresa = who.idEmpresa;
      const request = async (token: string, method: string, path: string, body: unknown, headers = {}) => {
        const res = await app.request(`/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
        return res.status;
      };

      // The tenant's representatives, each with a token and some clients of its portfolio.
      const repRows = await pool.query<{ cod_vendedor: number }>(
        `select distinct v.cod_vendedor from app.vw_vendedores v
          where v.id_empresa = $1
            and exists (select 1 from app.vw_clientes c where c.id_empresa = $1 and c.cod_vendedor = v.cod_vendedor)
          order by 1`,
        [idEmpresa],
      );
      const reps: { codVendedor: number; token: string; clients: number[] }[] = [];
      for (const r of repRows.rows) {
        const clients = await pool.query<{ id_cliente: number }>(
          'select id_cliente from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2 order by 1 limit 60',
          [idEmpresa, r.cod_vendedor],
        );
        reps.push({
          codVendedor: r.cod_vendedor,
          token: await erp.tokenOfRep(r.cod_vendedor),
          clients: clients.rows.map((c) => c.id_cliente),
        });
      }
      process.stderr.write(`${reps.length} representatives of tenant ${idEmpresa}\n`);

      // Pending orders to approve, placed through POST /orders by `who` (default money rules:
      // no credit limit, no flex, every line at the list price).
      const rep = await erp.token('representative');
      const catalog = await orderableCatalog(pool, who, { clients: 20, products: 50 });
      const toApprove = 2 * (OPS + WARM_UP);
      process.stderr.write(`placing ${toApprove} orders to approve...\n`);
      for (let i = 0; i < toApprove; i++) {
        const status = await request(
          rep,
          'POST',
          '/orders',
          {
            idCliente: catalog.clients[i % catalog.clients.length],
            itens: Array.from({ length: LINES }, (_, k) => ({
              idProduto: catalog.products[(i * LINES + k) % catalog.products.length],
              quantidade: 1 + (k % 3),
              descontoPercent: 0,
            })),
          },
          { 'idempotency-key': randomUUID() },
        );
        if (status !== 201) throw new Error(`POST /orders answered ${status}`);
      }
      const pending = (
        await pool.query<{ id: string }>(
          'select id from app.pedidos where id_empresa = $1 and cod_vendedor = $2 and situa = 1 order by id',
          [idEmpresa, who.codVendedor],
        )
      ).rows.map((r) => Number(r.id));
      // Each representative's ledger holds more entries than its document carries, as in service.
      await pool.query(
        `insert into app.flex_lancamentos (id_empresa, cod_vendedor, tipo, valor, motivo, criado_por)
         select $1, v, 'ajuste', 100, 'Saldo inicial', 'bench' from unnest($2::integer[]) v, generate_series(1, 60)`,
        [idEmpresa, reps.map((r) => r.codVendedor)],
      );
      await pool.query(
        `insert into app.flex_saldos (id_empresa, cod_vendedor, saldo) select $1, v, 6000 from unnest($2::integer[]) v
         on conflict (id_empresa, cod_vendedor) do update set saldo = excluded.saldo`,
        [idEmpresa, reps.map((r) => r.codVendedor)],
      );
      // The change log as a distributor's holds it, then ANALYZE (as the orders benches do).
      process.stderr.write('refreshing the change log...\n');
      await refreshAll(createDb(pool), idEmpresa);
      await pool.query('vacuum analyze');

      const lines: Line[] = [];
      const run = async (
        name: string,
        unit: string,
        ops: number,
        campoJob: (i: number) => Promise<boolean>,
        limitJob: (i: number) => Promise<void>,
        rounds: { round?: number; between?: () => Promise<void> } = {},
        warmUp = WARM_UP,
      ) => {
        process.stderr.write(`${name}: the true limit...\n`);
        for (let i = 0; i < Math.min(warmUp, rounds.round ?? warmUp); i++) await limitJob(i);
        await rounds.between?.();
        let base = WARM_UP;
        const limit = await measureOps(pool, pid, {
          total: ops,
          concurrency: CONCURRENCY,
          job: (i) => limitJob(base + i),
          ...rounds,
        });
        await rounds.between?.();
        process.stderr.write(`${name}: Campo...\n`);
        base = WARM_UP + ops;
        for (let i = 0; i < Math.min(warmUp, rounds.round ?? warmUp); i++) await campoJob(base + i);
        await rounds.between?.();
        base += WARM_UP;
        let failures = 0;
        const campo = await measureOps(pool, pid, {
          total: ops,
          concurrency: CONCURRENCY,
          job: async (i) => {
            if (!(await campoJob(base + i))) failures++;
          },
          ...rounds,
        });
        await rounds.between?.();
        lines.push({ name, unit, campo, limit, failures });
      };

      // A supervisor's approval. The limit takes the first pending orders, Campo the next.
      const supervisor = await erp.token('supervisor');
      await run(
        "a supervisor's approval (POST /orders/{id}/approve)",
        'approval',
        OPS,
        async (i) => (await request(supervisor, 'POST', `/orders/${pending[i]}/approve`, undefined)) === 200,
        async (i) => {
          const { rowCount } = await pool.query(APPROVE_LIMIT, [idEmpresa, pending[i]]);
          if (rowCount !== 1) throw new Error(`approval limit: order ${pending[i]} not pending`);
        },
      );

      // A visit's check-in: one open visit per representative, so in rounds of one check-in per
      // representative, every visit closed between rounds.
      const position = (i: number) => ({ latitude: -23.55 + (i % 100) / 10_000, longitude: -46.63, precisao: 10 });
      const repOf = (i: number) => reps[i % reps.length] as (typeof reps)[number];
      const clientOf = (i: number) => {
        const r = repOf(i);
        return r.clients[Math.floor(i / reps.length) % r.clients.length] as number;
      };
      await run(
        "a visit's check-in (POST /visits)",
        'check-in',
        OPS,
        async (i) =>
          (await request(repOf(i).token, 'POST', '/visits', {
            id: randomUUID(),
            idCliente: clientOf(i),
            em: new Date().toISOString(),
            posicao: position(i),
          })) === 201,
        async (i) => {
          const p = position(i);
          await pool.query(CHECK_IN_LIMIT, [
            idEmpresa,
            randomUUID(),
            repOf(i).codVendedor,
            clientOf(i),
            p.latitude,
            p.longitude,
          ]);
        },
        { round: reps.length, between: async () => void (await pool.query(CLOSE_VISITS, [idEmpresa])) },
      );

      // A manager's flex adjustment, of the team's balances in turn.
      const manager = await erp.token('manager');
      await run(
        "a manager's flex adjustment (POST /flex/balances/{codVendedor}/adjustments)",
        'adjustment',
        OPS,
        async (i) =>
          (await request(manager, 'POST', `/flex/balances/${repOf(i).codVendedor}/adjustments`, {
            valor: 1.5,
            motivo: 'Campanha da semana',
          })) === 201,
        async (i) => {
          await pool.query(ADJUST_LIMIT, [idEmpresa, repOf(i).codVendedor, 1.5, 'Campanha da semana']);
        },
      );

      // A device's push of 50 new funnel cards, each of a client of its representative.
      const cards = (i: number) =>
        Array.from({ length: CARDS }, (_, k) => ({
          id: randomUUID(),
          idCliente: repOf(i).clients[(i * CARDS + k) % repOf(i).clients.length] as number,
          valor: 100 + k,
          observacoes: 'Visitar na próxima semana',
        }));
      await run(
        `a device's push of ${CARDS} documents (POST /sync/funil/push, new funnel cards)`,
        'push',
        PUSHES,
        async (i) => {
          const now = new Date().toISOString();
          const rows = cards(i).map((c) => ({
            assumedMasterState: null,
            newDocumentState: {
              ...c,
              estagio: 'lead',
              nomeCliente: null,
              nomeProspect: null,
              empresaProspect: null,
              idPedido: null,
              previsaoFechamento: null,
              motivoPerda: null,
              criadoEm: now,
              atualizadoEm: now,
              _deleted: false,
            },
          }));
          return (
            (await request(repOf(i).token, 'POST', '/sync/funil/push', rows, {
              [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION),
            })) === 200
          );
        },
        async (i) => {
          const c = cards(i);
          await pool.query(PUSH_LIMIT, [
            idEmpresa,
            repOf(i).codVendedor,
            c.map((x) => x.id),
            c.map((x) => x.idCliente),
            c.map((x) => x.valor),
            c.map((x) => x.observacoes),
          ]);
        },
        {},
        PUSH_WARM_UP,
      );

      const body = report(lines, [loadAtStart, loadavg()[0] ?? 0]);
      writeSection('hot-paths', 'Hot paths: approval, check-in, flex adjustment, push (issue #51)', body);
      process.stdout.write(`${body}\n`);
    },
    { settings: PG_STAT_SETTINGS },
  );
}

function report(lines: Line[], load: [number, number]): string {
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  const row = (label: string, f: Figures) => [
    label,
    f.ops,
    f.rate.toFixed(0),
    ms(f.p50),
    ms(f.p99),
    f.statements.toFixed(1),
    f.blocks.toFixed(0),
    f.documents.toFixed(1),
    ms(f.execMs),
    ms(f.cpuMs),
  ];
  const signed = (v: number, digits: number) => `${v >= 0 ? '+' : ''}${v.toFixed(digits)}`;
  return [
    `Command: \`pnpm bench hot-paths\` (\`BENCH_HOT_OPS\`, default 300, operations per line; \`BENCH_HOT_PUSHES\`,`,
    `default 60, pushes of ${CARDS} cards). The \`small\` fixture's first tenant, PostgreSQL 18 with durable settings and`,
    `pg_stat_statements, ${CONCURRENCY} operations at once, ${WARM_UP} more before each measured run (${PUSH_WARM_UP} pushes). Campo: the app in-process`,
    '(routes, auth, validation, services) on the server role bound by row-level security, as a client calls it.',
    "The true limit: the operation's business rows alone in one statement sent in one round trip (one",
    "implicit transaction), from the superuser pool: the approval is the order's `situa` update, whose",
    "trigger trg_pedido_aprovado writes the ERP's `pedidos_venda` and `pedidos_venda_itens` rows; the",
    "check-in, the visit's row; the adjustment, the balance's upsert and the ledger's entry; the push, the",
    `${CARDS} cards' rows in one insert. Before the run: ${2 * WARM_UP + 2 * OPS} pending orders of ${LINES} lines placed`,
    'through POST /orders, 60 ledger entries per representative, the change log refreshed, VACUUM ANALYZE.',
    'Check-ins run in rounds of one per representative (one open visit each), the open visits closed',
    'between rounds by a statement left out of the figures (its time, statements and CPU).',
    '',
    'Statements: top-level statements per operation, as pg_stat_statements counts them (BEGIN and COMMIT',
    "sent in the API's batches are not counted there). Blocks: shared buffers hit, read or dirtied per",
    'operation, the figure that does not move with the machine. Documents: change-log revisions drawn',
    '(a document written draws one; an unchanged one sent again may too) per operation. PostgreSQL CPU:',
    'user + system time of every PostgreSQL process during the run, per operation (in clock ticks of',
    '10 ms: a short run rounds it). Times and CPU are indicative only on this shared machine; the',
    'statements, blocks and documents are the figures to compare. Load average (1 minute) of this',
    `machine when the bench started: ${load[0].toFixed(1)}; when it ended: ${load[1].toFixed(1)}.`,
    '',
    table(
      [
        '',
        'ops',
        'ops/s',
        'p50',
        'p99',
        'statements / op',
        'blocks / op',
        'documents / op',
        'execution / op',
        'PostgreSQL CPU / op',
      ],
      lines.flatMap((l) => [
        row(`${l.name}: true limit`, l.limit),
        row(`${l.name}: Campo`, l.campo),
        [
          `${l.name}: Campo against the limit`,
          '',
          `${((100 * l.campo.rate) / l.limit.rate).toFixed(1)} %`,
          '',
          '',
          `${(l.campo.statements / l.limit.statements).toFixed(1)} ×`,
          `${(l.campo.blocks / l.limit.blocks).toFixed(1)} ×`,
          '',
          `${(l.campo.execMs / l.limit.execMs).toFixed(1)} ×`,
          l.limit.cpuMs > 0 ? `${(l.campo.cpuMs / l.limit.cpuMs).toFixed(1)} ×` : 'n/a',
        ],
      ]),
    ),
    '',
    "Campo's bookkeeping and checks apart (Campo minus the limit, per operation):",
    '',
    table(
      ['', 'statements', 'blocks', 'documents', 'execution', 'PostgreSQL CPU', 'failed requests'],
      lines.map((l) => [
        l.name,
        signed(l.campo.statements - l.limit.statements, 1),
        signed(l.campo.blocks - l.limit.blocks, 0),
        signed(l.campo.documents - l.limit.documents, 1),
        `${signed(l.campo.execMs - l.limit.execMs, 2)} ms`,
        `${signed(l.campo.cpuMs - l.limit.cpuMs, 2)} ms`,
        l.failures,
      ]),
    ),
    '',
    ...lines.flatMap((l) => [
      `Campo's statements for ${l.name}, most blocks first (per ${l.unit}):`,
      '',
      table(
        ['statement', 'calls', 'blocks', 'execution'],
        l.campo.top
          .slice(0, 8)
          .map((s) => [shortQuery(s.query), s.calls.toFixed(2), s.blocks.toFixed(1), ms(s.execMs)]),
      ),
      '',
    ]),
  ].join('\n');
}
