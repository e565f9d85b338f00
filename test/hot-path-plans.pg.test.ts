// Campo runs inside the client's ERP database: PostgreSQL CPU spent planning the same
// statements again and again is taken from the ERP. The hot paths (an order, the approvers'
// pending-count badge, the token check, a device's pull, the supervisor's and the representative's dashboards) run their statements prepared, so each connection
// plans them once; this holds them to it, on one connection whose statements the test sees:
// how many statements an order costs, that each is a prepared one PostgreSQL runs from its
// plan cache (a generic plan, so no planning per call),
// and that executing the reads costs more than what planning is left.
import type { Order } from '@campo/shared';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../server/src/app.ts';
import { noticesSent } from '../server/src/changelog/notices.ts';
import { Batch } from '../server/src/db/batch.ts';
import { createPool } from '../server/src/db/pool.ts';
import { compactSql, PREPARED } from '../server/src/db/prepared.ts';
import { TEST_JWT_SECRET } from './support/app.ts';
import { postOrder as postOrderAs } from './support/builders.ts';
import { type ErpPeople, knownCeiling, provisionedErp } from './support/erp.ts';
import { asServerRole, useTestDatabase } from './support/pg.ts';
import { apiAs, logInAs } from './support/session.ts';

const db = useTestDatabase();

/** Runs past PostgreSQL's five custom plans, so a generic plan is chosen if it ever will be. */
const ORDERS = 12;

interface Seen {
  text: string;
  values: unknown[];
  /** The round trip it went out in: a statement sent while none is awaiting its answer starts one. */
  trip: number;
}

/** A parameter as an SQL literal, for EXECUTE name(...). */
function literal(client: pg.PoolClient, v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (Array.isArray(v)) {
    const items = v.map((x) => (x === null ? 'NULL' : `"${String(x).replace(/["\\]/g, '\\$&')}"`));
    return client.escapeLiteral(`{${items.join(',')}}`);
  }
  if (Buffer.isBuffer(v)) return client.escapeLiteral(`\\x${v.toString('hex')}`);
  if (v instanceof Date) return client.escapeLiteral(v.toISOString());
  return client.escapeLiteral(String(v));
}

describe('hot paths plan once per connection', () => {
  let pool: pg.Pool;
  let app: ReturnType<typeof createApp>;
  let erp: ErpPeople;
  let recording: Seen[] | null = null;
  let trip = 0;
  let awaiting = 0;
  let syncs = 0;
  const tokens: Record<string, string> = {};
  let order: { idCliente: number; itens: { idProduto: number; quantidade: number; descontoPercent: number }[] };
  let rep: ErpPeople['reps'][number];

  beforeAll(async () => {
    erp = await provisionedErp(db.pool);
    // One connection: every statement of the app runs on the backend the test inspects.
    pool = createPool(asServerRole(db.url), 1);
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        if (awaiting === 0) trip++;
        if (recording && typeof args[0] === 'string') {
          recording.push({ text: args[0], values: Array.isArray(args[1]) ? args[1] : [], trip });
        }
        // A batch (server/src/db/batch.ts): its statements in one round trip, with one Sync.
        const batch = args[0] instanceof Batch ? args[0] : null;
        if (recording && batch) {
          syncs++;
          for (const st of batch.statements) recording.push({ text: st.text, values: [...st.values], trip });
        }
        const answer = query(...args);
        if (answer instanceof Promise) {
          awaiting++;
          answer.then(
            () => awaiting--,
            () => awaiting--,
          );
        }
        return answer;
      };
    });
    app = createApp({ pool, config: { jwtSecret: TEST_JWT_SECRET, tokenTtlHours: 1, devLogin: false } });
    rep = erp.reps[0] as ErpPeople['reps'][number];
    const client = await db.pool.query(
      `select id_cliente, id_pauta from app.vw_clientes
        where id_empresa = $1 and cod_vendedor = $2 and status_financeiro <> 'blocked' and id_pauta is not null
          and end_entrega is not null
        order by id_cliente limit 1`,
      [rep.idEmpresa, rep.codVendedor],
    );
    const products = await db.pool.query(
      `select p.id_produto from app.vw_produtos p join app.vw_precos pr on pr.id_produto = p.id_produto and pr.id_pauta = $2
        where p.id_empresa = $1 and p.ativo order by p.id_produto limit 5`,
      [rep.idEmpresa, client.rows[0].id_pauta],
    );
    order = {
      idCliente: client.rows[0].id_cliente,
      itens: products.rows.map((p, k) => ({ idProduto: p.id_produto, quantidade: 1 + k, descontoPercent: 0 })),
    };
    tokens.rep = await logInAs(app, db.pool, {
      login: 'rep@plans.test',
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
    });
    tokens.supervisor = await logInAs(app, db.pool, {
      login: 'sup@plans.test',
      role: 'supervisor',
      idEmpresa: rep.idEmpresa,
      codSupervisor: rep.codSupervisor,
    });
  });

  afterAll(async () => {
    await pool?.end();
  });

  const as = (who: string) => apiAs(app, tokens[who] ?? null);

  /**
   * Sends `request` ORDERS times, past PostgreSQL's first five custom plans, each answered with
   * `status`; the answer of the last one and the statements it sent.
   */
  async function lastOfMany(request: () => Response | Promise<Response>, status = 200) {
    for (let i = 0; i < ORDERS - 1; i++) expect((await request()).status).toBe(status);
    // An order's change notices go out after its answer (announceCommitted): the last order's
    // are its own, the others' are not.
    await noticesSent(pool);
    recording = [];
    syncs = 0;
    const res = await request();
    await noticesSent(pool);
    const seen = recording;
    recording = null;
    expect(res.status).toBe(status);
    return { res, seen };
  }

  /** The plan-cache counters of this connection's prepared statements, by text. */
  async function planCounters() {
    const { rows } = await pool.query<{ statement: string; generic_plans: number; custom_plans: number }>(
      'select statement, generic_plans::int, custom_plans::int from pg_prepared_statements where not from_sql',
    );
    return new Map(rows.map((r) => [r.statement, r]));
  }

  /** Median planning and execution time (ms) of a prepared statement run again with the parameters it had. */
  async function planVersusExecution(
    seen: Seen,
    scope: { idEmpresa: number; codVendedor: number | null; planCacheMode: 'auto' | 'force_generic_plan' },
  ) {
    const client = await pool.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        'select name from pg_prepared_statements where statement = $1',
        [compactSql(seen.text)],
      );
      const name = rows[0]?.name;
      if (!name) throw new Error(`not prepared: ${seen.text.slice(0, 80)}`);
      const planning: number[] = [];
      const execution: number[] = [];
      for (let i = 0; i < 7; i++) {
        await client.query('begin');
        await client.query(
          `select set_config('campo.id_empresa', $1, true), set_config('campo.cod_vendedor', $2, true),
                  set_config('TimeZone', 'America/Sao_Paulo', true), set_config('plan_cache_mode', $3, true)`,
          [String(scope.idEmpresa), scope.codVendedor === null ? '' : String(scope.codVendedor), scope.planCacheMode],
        );
        const explained = await client.query<{ 'QUERY PLAN': [{ 'Planning Time': number; 'Execution Time': number }] }>(
          `explain (analyze, summary, format json) execute ${name}(${seen.values.map((v) => literal(client, v)).join(', ')})`,
        );
        await client.query('rollback');
        const plan = explained.rows[0]?.['QUERY PLAN'][0];
        planning.push(plan?.['Planning Time'] ?? Number.NaN);
        execution.push(plan?.['Execution Time'] ?? Number.NaN);
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
      return { planning: median(planning), execution: median(execution) };
    } finally {
      client.release();
    }
  }

  it('an order takes six statements in two round trips, one Sync each, each prepared and planned once per connection', async () => {
    await orderStatements();
  });

  it("and just as many for a client with a credit limit, whose row it locks to judge the order's credit", async () => {
    await db.pool.query(
      `insert into app.limites_credito (id_empresa, id_cliente, limite) values ($1, $2, 999999999)
       on conflict (id_empresa, id_cliente) do update set limite = excluded.limite`,
      [rep.idEmpresa, order.idCliente],
    );
    await db.pool.query(
      `insert into app.config_empresa (id_empresa, politica_credito) values ($1, 'block')
       on conflict (id_empresa) do update set politica_credito = excluded.politica_credito`,
      [rep.idEmpresa],
    );
    const res = await orderStatements();
    expect(((await res.json()) as { credit: unknown }).credit).toMatchObject({ limit: 999999999, exceeded: false });
  });

  it('and just as many with flex on, for an order within its ceilings: it reserves nothing', async () => {
    await db.pool.query(
      `insert into app.config_empresa (id_empresa, flex_percentual_credito, flex_maximo_pontos) values ($1, 50, 5)
       on conflict (id_empresa) do update set flex_percentual_credito = 50, flex_maximo_pontos = 5`,
      [rep.idEmpresa],
    );
    const res = await orderStatements();
    expect(((await res.json()) as Order).itens.every((l) => l.flexUsado === 0)).toBe(true);
  });

  it('an order that spends flex adds the reservation: eight statements in three round trips, each planned once', async () => {
    await knownCeiling(db.pool, rep, 5);
    await db.pool.query(
      `with saldo as (
         insert into app.flex_saldos (id_empresa, cod_vendedor, saldo) values ($1, $2, 1000000)
         on conflict (id_empresa, cod_vendedor) do update set saldo = app.flex_saldos.saldo + 1000000)
       insert into app.flex_lancamentos (id_empresa, cod_vendedor, tipo, valor, motivo, criado_por)
       values ($1, $2, 'ajuste', 1000000, 'Saldo do teste', 'test')`,
      [rep.idEmpresa, rep.codVendedor],
    );
    // As the bench's: the first line 2 points past its ceiling of 5 %, the second above the list.
    const spending = {
      ...order,
      itens: order.itens.map((l, k) => ({ ...l, descontoPercent: k === 0 ? 7 : k === 1 ? -2 : 0 })),
    };
    // BEGIN, the scope and the context; the balance's and the flex document's locks, and the
    // reservation (debit, entry, the logged document or the ledger's entries); the order, the rest (the flex
    // document with it) and COMMIT. Before, the reservation took four statements in three round
    // trips of their own, three of them unprepared, and the document one more statement.
    const res = await orderStatements(spending, [0, 0, 0, 1, 1, 2, 2, 2]);
    const body = (await res.json()) as Order;
    expect(body.itens[0]?.flexUsado).toBeGreaterThan(0);
    const { rows } = await db.pool.query(
      `select (select saldo from app.flex_saldos where id_empresa = $1 and cod_vendedor = $2)
            = (select sum(valor) from app.flex_lancamentos where id_empresa = $1 and cod_vendedor = $2) as somado,
              exists (select 1 from app.flex_lancamentos where id_empresa = $1 and id_pedido = $3 and tipo = 'reserva') as reservado`,
      [rep.idEmpresa, rep.codVendedor, body.id],
    );
    expect(rows[0]).toEqual({ somado: true, reservado: true });
  });

  /**
   * An order's statements, as the first test says (or in the round trips given, one Sync
   * each); the last order's answer.
   */
  async function orderStatements(body = order, trips = [0, 0, 0, 1, 1, 1]): Promise<Response> {
    const { res, seen } = await lastOfMany(() => postOrderAs(as('rep'), body), 201);
    const bare = (text: string) => text.replace(PREPARED, '').trim().toLowerCase();

    // After the transaction, the change notices in a statement of their own (announceCommitted).
    const end = seen.findIndex((s) => bare(s.text) === 'commit');
    expect(seen.slice(end + 1).map((s) => s.text)).toEqual([expect.stringContaining('pg_notify')]);
    seen.splice(end + 1);
    const texts = seen.map((s) => s.text.trim().split(/\s+/).slice(0, 3).join(' '));
    // BEGIN, the scope with the key's lock, the context read (with the push audience and the
    // order's id), the order, the rest (lines, history, key, the two change-log revisions, push messages),
    // COMMIT (the token check is cached).
    expect(texts, texts.join('\n')).toHaveLength(trips.length);
    const inTransaction = seen.slice(1, -1);
    expect(bare(seen[0]?.text ?? '')).toBe('begin');
    expect(bare(seen.at(-1)?.text ?? '')).toBe('commit');
    // BEGIN, the scope and the context read together; the order, the rest and COMMIT together:
    // each round trip one batch, answered with one ReadyForQuery.
    const first = seen[0]?.trip as number;
    expect(seen.map((s) => s.trip - first)).toEqual(trips);
    expect(syncs).toBe((trips.at(-1) as number) + 1);
    for (const s of seen) expect(s.text.startsWith(PREPARED), s.text.slice(0, 120)).toBe(true);

    const counters = await planCounters();
    // PostgreSQL copies a statement's text at every Bind and into pg_stat_activity at every
    // message: the order's statements are sent without their layout (compactSql).
    for (const text of counters.keys()) expect(text, text.slice(0, 120)).not.toMatch(/\n|\s{2}/);
    for (const [i, s] of inTransaction.entries()) {
      const c = counters.get(compactSql(s.text));
      expect(c, s.text.slice(0, 120)).toBeDefined();
      // The scope with the key's lock: at most the first five executions planned with their
      // parameters, every later one from the generic plan. After it the order forces generic
      // plans (orderKeyLock): never a custom one, whatever the planner would judge on other data.
      expect(c?.custom_plans, s.text.slice(0, 120)).toBeLessThanOrEqual(i < 1 ? 5 : 0);
      expect(c?.generic_plans, s.text.slice(0, 120)).toBeGreaterThanOrEqual(i < 1 ? ORDERS - 5 : ORDERS);
    }

    // The reads: what is left of planning (fetching the cached plan) costs less than running them.
    const reads = inTransaction.filter((s) => /\bselect\b/i.test(s.text) && !/\binsert\b/i.test(s.text));
    expect(reads.length).toBeGreaterThanOrEqual(2);
    // Not the locks: a lock's execution is next to nothing, and so is what is left of its planning.
    for (const s of reads.filter((r) => !/pg_try_advisory|pg_advisory_xact_lock\(|set_config/.test(r.text))) {
      // In the order's transaction, as orderKeyLock sets it.
      const t = await planVersusExecution(s, {
        idEmpresa: rep.idEmpresa,
        codVendedor: rep.codVendedor,
        planCacheMode: 'force_generic_plan',
      });
      expect(t.planning, `${s.text.slice(0, 120)}: ${JSON.stringify(t)}`).toBeLessThan(t.execution);
    }
    return res;
  }

  it("the supervisor's dashboard runs its statements prepared, each planned once per connection", async () => {
    const dashboard = () => as('supervisor')('GET', '/dashboard/supervisor');
    const { seen } = await lastOfMany(dashboard);
    const statements = seen.filter((x) => !/^(begin|commit)$/i.test(x.text.trim()));
    expect(statements.length).toBeGreaterThanOrEqual(5);
    const counters = await planCounters();
    for (const x of statements) {
      expect(x.text.slice(0, 24).includes(PREPARED), x.text.slice(0, 120)).toBe(true);
      const c = counters.get(compactSql(x.text));
      expect(c?.custom_plans, x.text.slice(0, 120)).toBeLessThanOrEqual(5);
    }
  });

  it("the representative's dashboard runs its prepared reads on generic plans, never planned per call", async () => {
    const dashboard = () => as('rep')('GET', '/dashboard/rep');
    // Some of its statements (the calendar, the scope) are the other dashboards' too: count
    // only the plans made for this dashboard's requests.
    const before = await planCounters();
    const { seen } = await lastOfMany(dashboard);
    const statements = seen.filter((x) => !/^(begin|commit)$/i.test(x.text.trim()));
    const prepared = statements.filter((x) => x.text.slice(0, 24).includes(PREPARED));
    // Planned per call for their values: the FLEX base, the inactive clients, the recent ERP orders.
    expect(statements.length - prepared.length).toBe(3);
    expect(prepared.length).toBeGreaterThanOrEqual(8);
    const counters = await planCounters();
    for (const x of prepared) {
      const c = counters.get(compactSql(x.text));
      expect(c, x.text.slice(0, 120)).toBeDefined();
      const custom = (c?.custom_plans ?? 0) - (before.get(compactSql(x.text))?.custom_plans ?? 0);
      const generic = (c?.generic_plans ?? 0) - (before.get(compactSql(x.text))?.generic_plans ?? 0);
      // The request scope comes before withGenericPlans: at most PostgreSQL's first five custom plans.
      const scope = /campo\.id_empresa/.test(x.text);
      expect(custom, x.text.slice(0, 120)).toBeLessThanOrEqual(scope ? 5 : 0);
      expect(generic, x.text.slice(0, 120)).toBeGreaterThanOrEqual(scope ? 0 : ORDERS);
    }
    // The setting is handed back: a statement after the dashboard plans as the server is configured.
    const { rows } = await pool.query<{ mode: string }>("select current_setting('plan_cache_mode') as mode");
    expect(rows[0]?.mode).toBe('auto');
  });

  it('a device catching up: the pull reads its page prepared, planned once, and plans for less than it runs', async () => {
    const pull = (checkpoint?: string) =>
      as('rep')('GET', `/sync/produtos/pull?limit=1000${checkpoint ? `&checkpoint=${checkpoint}` : ''}`);
    let checkpoint: string | undefined;
    for (;;) {
      const res = await pull(checkpoint);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { documents: unknown[]; checkpoint: string };
      checkpoint = body.checkpoint;
      if (body.documents.length < 1000) break;
    }
    // Nothing new since: the pull a device makes most often.
    const { res, seen } = await lastOfMany(() => pull(checkpoint));
    expect(((await res.json()) as { documents: unknown[] }).documents).toEqual([]);
    const statements = seen.filter((x) => !/^(begin|commit)$/i.test(x.text.trim()));
    // The scope with the horizon, and the page.
    expect(statements.length, statements.map((x) => x.text.slice(0, 80)).join('\n')).toBe(2);
    const counters = await planCounters();
    for (const x of statements) {
      expect(x.text.slice(0, 24).includes(PREPARED), x.text.slice(0, 120)).toBe(true);
      const c = counters.get(compactSql(x.text));
      expect(c?.custom_plans, x.text.slice(0, 120)).toBeLessThanOrEqual(5);
      expect(c?.generic_plans, x.text.slice(0, 120)).toBeGreaterThanOrEqual(ORDERS - 5);
      const t = await planVersusExecution(x, {
        idEmpresa: rep.idEmpresa,
        codVendedor: rep.codVendedor,
        planCacheMode: 'auto',
      });
      expect(t.planning, `${x.text.slice(0, 120)}: ${JSON.stringify(t)}`).toBeLessThan(t.execution);
    }
  });

  it("the approvers' pending count is prepared, planned once, and plans for less than it runs", async () => {
    const badge = () => as('supervisor')('GET', '/notifications/pending-count');
    const { res, seen } = await lastOfMany(badge);
    expect(((await res.json()) as { count: number }).count).toBeGreaterThanOrEqual(ORDERS);

    const count = seen.find((s) => /count\(\*\)/i.test(s.text));
    expect(count?.text.includes(PREPARED)).toBe(true);
    const c = (await planCounters()).get(compactSql(count?.text ?? ''));
    expect(c?.custom_plans).toBeLessThanOrEqual(5);
    expect(c?.generic_plans).toBeGreaterThanOrEqual(ORDERS - 5);
    const t = await planVersusExecution(count as Seen, {
      idEmpresa: rep.idEmpresa,
      codVendedor: null,
      planCacheMode: 'auto',
    });
    expect(t.planning, JSON.stringify(t)).toBeLessThan(t.execution);
  });
});
