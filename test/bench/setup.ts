// What the database benchmarks share: an embedded PostgreSQL with a LATIN1 ERP at a scale,
// provisioned, a server role bound by row-level security (as in production), users of every
// role for one representative's team, and the app in-process on the server role's pool.
import type pg from 'pg';
import { createApp } from '../../server/src/app.ts';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.ts';
import { createDb } from '../../server/src/db/kysely.ts';
import { createPool } from '../../server/src/db/pool.ts';
import { createErpFixture } from '../../server/src/erp-fixture/generate.ts';
import type { FixtureScale } from '../../server/src/erp-fixture/scales.ts';
import { grantServerRole } from '../../server/src/provisioning/grant.ts';
import { provision } from '../../server/src/provisioning/provision.ts';
import { addUser } from '../../server/src/users/service.ts';

const PASSWORD = 'bench-password-1';
export const BENCH_JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256!';

export interface BenchErp {
  /** Superuser pool on the ERP database (set-up, raw SQL baselines). */
  pool: pg.Pool;
  /** The server role's connection string and pool. */
  serverUrl: string;
  serverPool: pg.Pool;
  app: ReturnType<typeof createApp>;
  fixture: Awaited<ReturnType<typeof createErpFixture>>;
  /** The first tenant's representative with the most clients, and their supervisor. */
  who: { idEmpresa: number; codVendedor: number; codSupervisor: number };
  /** A bearer token of a user created with this role for `who`'s team. */
  token: (role: 'representative' | 'supervisor' | 'manager') => Promise<string>;
  /** Creates a representative user for another representative of the tenant; its token. */
  tokenOfRep: (codVendedor: number) => Promise<string>;
  /** The postmaster's pid, for pg-cost.ts. */
  postmasterPid: number;
}

export async function withBenchErp(
  scale: FixtureScale,
  fn: (erp: BenchErp) => Promise<void>,
  options: { settings?: string[] } = {},
): Promise<void> {
  // BENCH_PG_PORT (or BENCH_PORT_BASE): a port of one's own on a machine shared with other work.
  const server = await startEmbeddedPostgres({
    settings: options.settings ?? [],
    port: Number(process.env.BENCH_PG_PORT ?? process.env.BENCH_PORT_BASE ?? 0),
  });
  try {
    const admin = createPool(server.url(), 1);
    await admin.query("create database erp encoding 'LATIN1' lc_collate 'C' lc_ctype 'C' template template0");
    await admin.end();
    const pool = createPool(server.url('erp'), 4);
    const url = new URL(server.url('erp'));
    url.username = 'campo_bench';
    url.password = 'campo_bench';
    const serverPool = createPool(url.toString(), 8);
    try {
      process.stderr.write(`creating the ${scale} fixture...\n`);
      const fixture = await createErpFixture(pool, { scale, asOf: new Date() });
      await provision(pool, {});
      await pool.query(
        "do $$ begin create role campo_bench login password 'campo_bench'; exception when duplicate_object then null; end $$",
      );
      await grantServerRole(pool, 'campo_bench');
      await pool.query('analyze');
      const { rows } = await pool.query<{ id_empresa: number; cod_vendedor: number; cod_supervisor: number }>(
        `select v.id_empresa, v.cod_vendedor, v.cod_supervisor
           from app.vw_vendedores v join corrent c on c.cod_vendedor = v.cod_vendedor and c.id_empresa = v.id_filial
          where v.cod_supervisor is not null
          group by 1, 2, 3 order by count(*) desc, 1, 2 limit 1`,
      );
      const who = rows[0];
      if (!who) throw new Error(`no representative with a supervisor in the ${scale} fixture`);
      const db = createDb(pool);
      const app = createApp({
        pool: serverPool,
        config: { jwtSecret: BENCH_JWT_SECRET, tokenTtlHours: 1, devLogin: false },
      });
      const login = async (user: {
        login: string;
        role: string;
        codVendedor: number | null;
        codSupervisor: number | null;
      }) => {
        await addUser(db, { ...user, name: user.login, idEmpresa: who.id_empresa, password: PASSWORD });
        const res = await app.request('/api/v1/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ login: user.login, password: PASSWORD }),
        });
        return ((await res.json()) as { token: string }).token;
      };
      const made = new Map<string, Promise<string>>();
      const once = (key: string, make: () => Promise<string>) => {
        const found = made.get(key);
        if (found !== undefined) return found;
        const p = make();
        made.set(key, p);
        return p;
      };
      await fn({
        pool,
        serverUrl: url.toString(),
        serverPool,
        app,
        fixture,
        who: { idEmpresa: who.id_empresa, codVendedor: who.cod_vendedor, codSupervisor: who.cod_supervisor },
        postmasterPid: server.pid,
        token: (role) =>
          once(role, () =>
            login({
              login: `${role}@bench.test`,
              role,
              codVendedor: role === 'representative' ? who.cod_vendedor : null,
              codSupervisor: role === 'supervisor' ? who.cod_supervisor : null,
            }),
          ),
        tokenOfRep: (codVendedor) =>
          once(`rep${codVendedor}`, () =>
            login({ login: `rep${codVendedor}@bench.test`, role: 'representative', codVendedor, codSupervisor: null }),
          ),
      });
    } finally {
      await serverPool.end();
      await pool.end();
    }
  } finally {
    await server.stop();
  }
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * What a bench's orders are made of for one representative: clients that can order (financial
 * status ok, a price list) sharing the first one's price list, and active products priced on it.
 */
export async function orderableCatalog(
  pool: pg.Pool,
  rep: { idEmpresa: number; codVendedor: number },
  limits: { clients: number; products: number },
): Promise<{ clients: number[]; products: number[] }> {
  const clients = await pool.query<{ id_cliente: number; id_pauta: number }>(
    `select id_cliente, id_pauta from app.vw_clientes
      where id_empresa = $1 and cod_vendedor = $2 and status_financeiro = 'ok' and id_pauta is not null
      order by 1 limit $3`,
    [rep.idEmpresa, rep.codVendedor, limits.clients],
  );
  const pauta = clients.rows[0]?.id_pauta;
  const products = await pool.query<{ id_produto: number }>(
    `select p.id_produto from app.vw_produtos p join app.vw_precos pr on pr.id_produto = p.id_produto
      where p.id_empresa = $1 and p.ativo and pr.id_pauta = $2 order by 1 limit $3`,
    [rep.idEmpresa, pauta, limits.products],
  );
  return {
    clients: clients.rows.filter((c) => c.id_pauta === pauta).map((c) => c.id_cliente),
    products: products.rows.map((p) => p.id_produto),
  };
}
