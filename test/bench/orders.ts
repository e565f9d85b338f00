// POST /orders under concurrent load, against raw PostgreSQL doing the same writes in the
// same run: the ratio is what the API layer (HTTP, auth, validation, pricing, the ceiling
// check, idempotency) costs on top of the database's own limit on this machine.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.ts';
import { createDb } from '../../server/src/db/kysely.ts';
import { createPool } from '../../server/src/db/pool.ts';
import { createErpFixture } from '../../server/src/erp-fixture/generate.ts';
import { grantServerRole } from '../../server/src/provisioning/grant.ts';
import { provision } from '../../server/src/provisioning/provision.ts';
import { addUser } from '../../server/src/users/service.ts';
import { table, writeSection } from './report.ts';

const CONCURRENCY = 16;
const REQUESTS = 2000;
const LINES = 5;
const PASSWORD = 'bench-password-1';
const CAMPO = fileURLToPath(new URL('../../server/bin/campo.mjs', import.meta.url));

interface Rep {
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

async function setUp(pool: pg.Pool, ownerUrl: string) {
  await createErpFixture(pool, { scale: 'small' });
  await provision(pool, {});
  await pool.query(
    "do $$ begin create role campo_bench login password 'campo_bench'; exception when duplicate_object then null; end $$",
  );
  await grantServerRole(pool, 'campo_bench');
  // No rules and no ceilings in the way: every order is accepted, as most are.
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
    const clients = await pool.query<{ id_cliente: number; id_pauta: number }>(
      `select id_cliente, id_pauta from app.vw_clientes
        where id_empresa = $1 and cod_vendedor = $2 and status_financeiro = 'ok' and id_pauta is not null order by 1 limit 20`,
      [r.id_empresa, r.cod_vendedor],
    );
    const pauta = clients.rows[0]?.id_pauta;
    const products = await pool.query<{ id_produto: number }>(
      `select p.id_produto from app.vw_produtos p join app.vw_precos pr on pr.id_produto = p.id_produto
        where p.id_empresa = $1 and p.ativo and pr.id_pauta = $2 order by 1 limit 50`,
      [r.id_empresa, pauta],
    );
    out.push({
      login,
      idEmpresa: r.id_empresa,
      codVendedor: r.cod_vendedor,
      clients: clients.rows.filter((c) => c.id_pauta === pauta).map((c) => c.id_cliente),
      products: products.rows.map((p) => p.id_produto),
    });
  }
  const serverUrl = new URL(ownerUrl);
  serverUrl.username = 'campo_bench';
  serverUrl.password = 'campo_bench';
  return { reps: out, serverUrl: serverUrl.toString() };
}

function orderFor(rep: Omit<Rep, 'token'>, i: number) {
  return {
    idCliente: rep.clients[i % rep.clients.length] as number,
    itens: Array.from({ length: LINES }, (_, k) => ({
      idProduto: rep.products[(i * LINES + k) % rep.products.length] as number,
      quantidade: 1 + (k % 3),
      descontoPercent: 0,
    })),
  };
}

/** The same writes as one accepted order, straight through the driver: the physical limit. */
async function rawOrder(pool: pg.Pool, rep: Omit<Rep, 'token'>, i: number, userId: number): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ ultimo: number }>('select app.proximo_num_ped_sar($1) as ultimo', [
      rep.idEmpresa,
    ]);
    const order = orderFor(rep, i);
    const head = await client.query<{ id: number }>(
      `insert into app.pedidos (id_empresa, cod_vendedor, num_ped_sar, id_cliente, nome_cliente, id_pauta, valor_bruto, valor_total)
       values ($1, $2, $3, $4, 'Cliente', 1, 10, 10) returning id`,
      [rep.idEmpresa, rep.codVendedor, rows[0]?.ultimo, order.idCliente],
    );
    const id = head.rows[0]?.id;
    for (const [k, line] of order.itens.entries()) {
      await client.query(
        `insert into app.pedido_itens (id_pedido, seq, id_empresa, id_produto, cod_produto, descricao, quantidade,
                                       preco_tabela, preco_unitario, perc_desconto, teto_desconto, id_pauta, valor_total)
         values ($1, $2, $3, $4, 'X', 'Produto', $5, 2, 2, 0, 5, 1, 2)`,
        [id, k + 1, rep.idEmpresa, line.idProduto, line.quantidade],
      );
    }
    await client.query(
      `insert into app.pedido_status_historico (id_pedido, id_empresa, situa_para, usuario) values ($1, $2, 1, 'bench')`,
      [id, rep.idEmpresa],
    );
    await client.query(
      `insert into app.chaves_idempotencia (id_empresa, id_usuario, chave, rota, hash_requisicao, status_resposta, corpo_resposta, id_pedido)
       values ($1, $2, $3, 'POST /orders', 'h', 201, convert_to('{}', 'UTF8'), $4)`,
      [rep.idEmpresa, userId, randomUUID(), id],
    );
    await client.query('commit');
  } finally {
    client.release();
  }
}

export async function benchOrders(): Promise<void> {
  const server = await startEmbeddedPostgres({});
  const admin = createPool(server.url(), 1);
  await admin.query("create database erp encoding 'LATIN1' lc_collate 'C' lc_ctype 'C' template template0");
  await admin.end();
  const pool = createPool(server.url('erp'), CONCURRENCY);
  let child: ReturnType<typeof spawn> | undefined;
  try {
    process.stderr.write('setting up the small fixture...\n');
    const { reps, serverUrl } = await setUp(pool, server.url('erp'));

    process.stderr.write('raw PostgreSQL...\n');
    const raw = await load(REQUESTS, CONCURRENCY, (i) => rawOrder(pool, reps[i % reps.length] as Rep, i, 1));

    child = spawn(process.execPath, [CAMPO, 'serve'], {
      env: {
        ...process.env,
        DATABASE_URL: serverUrl,
        PORT: '0',
        HOST: '127.0.0.1',
        JWT_SECRET: 'b'.repeat(40),
        LOG_LEVEL: 'info',
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
    process.stderr.write('POST /orders...\n');
    // Warm-up: JIT, connection pool, plan caches.
    await load(200, CONCURRENCY, async (i) => {
      const rep = withTokens[i % withTokens.length] as Rep;
      await fetch(`${base}/orders`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${rep.token}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify(orderFor(rep, i)),
      }).then((r) => r.arrayBuffer());
    });
    let failures = 0;
    const api = await load(REQUESTS, CONCURRENCY, async (i) => {
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
      if (res.status !== 201) failures++;
    });
    const body = [
      `Command: \`pnpm bench orders\`. ${REQUESTS} orders of ${LINES} lines, ${CONCURRENCY} concurrent clients, 8`,
      'representatives of the `small` fixture, PostgreSQL 18 with durable settings. The API runs as `campo serve`',
      'in its own process (server role bound by row-level security); the raw loop runs the same inserts',
      '(number, order, lines, history, idempotency key) in one transaction per order through the driver.',
      '',
      table(
        ['', 'orders/s', 'p50', 'p99'],
        [
          ['raw PostgreSQL', raw.rate.toFixed(0), `${raw.p50.toFixed(1)} ms`, `${raw.p99.toFixed(1)} ms`],
          ['POST /orders', api.rate.toFixed(0), `${api.p50.toFixed(1)} ms`, `${api.p99.toFixed(1)} ms`],
          ['ratio', `${((100 * api.rate) / raw.rate).toFixed(0)} %`, '', ''],
        ],
      ),
      '',
      `Targets: at least 50 % of the raw rate, p99 under 50 ms. Failed requests: ${failures}.`,
    ].join('\n');
    writeSection('orders', 'Orders: POST /orders against raw PostgreSQL', body);
    process.stdout.write(`${body}\n`);
  } finally {
    child?.kill('SIGTERM');
    await pool.end();
    await server.stop();
  }
}
