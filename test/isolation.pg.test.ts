// Defence in depth: the server's database role is bound by row-level security on the app
// tables, so even a query without a tenant filter sees only the caller's tenant (and, for a
// representative, only their rows).
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantServerRole } from '../server/src/provisioning/grant.ts';
import { anOrder } from './support/builders.ts';
import { type ErpPeople, provisionedErp } from './support/erp.ts';
import { SERVER_ROLE, serverRolePool, useTestDatabase } from './support/pg.ts';

const db = useTestDatabase();

async function asServer<T>(
  url: string,
  scope: { idEmpresa?: number; codVendedor?: number },
  fn: (c: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await serverRolePool(url).connect();
  try {
    await client.query('begin');
    await client.query("select set_config('campo.id_empresa', $1, true), set_config('campo.cod_vendedor', $2, true)", [
      scope.idEmpresa === undefined ? '' : String(scope.idEmpresa),
      scope.codVendedor === undefined ? '' : String(scope.codVendedor),
    ]);
    return await fn(client);
  } finally {
    await client.query('rollback');
    client.release();
  }
}

describe('row-level security for the server role', () => {
  let erp: ErpPeople;
  const orders: { idEmpresa: number; codVendedor: number }[] = [];

  beforeAll(async () => {
    erp = await provisionedErp(db.pool);
    // Two orders per representative of the first two of each tenant, written as the owner.
    let n = 0;
    for (const rep of erp.reps.slice(0, 2).concat(erp.reps.filter((r) => r.idEmpresa !== erp.tenants[0]).slice(0, 2))) {
      for (let i = 0; i < 2; i++) {
        await anOrder(db.pool, rep, { numPedSar: ++n, client: { idCliente: 1, razaoSocial: 'Cliente' } });
        orders.push(rep);
      }
    }
  });

  it('is not a superuser and owns nothing in app', async () => {
    const { rows } = await db.pool.query(
      `select r.rolsuper, r.rolbypassrls,
              (select count(*)::int from pg_tables t where t.schemaname = 'app' and t.tableowner = r.rolname) as owned
         from pg_roles r where r.rolname = $1`,
      [SERVER_ROLE],
    );
    expect(rows[0]).toEqual({ rolsuper: false, rolbypassrls: false, owned: 0 });
  });

  it('sees no row at all when the request set no tenant', async () => {
    const count = await asServer(
      db.url,
      {},
      async (c) => (await c.query('select count(*)::int as n from app.pedidos')).rows[0].n,
    );
    expect(count).toBe(0);
  });

  it("sees only the tenant's rows without any filter in the query", async () => {
    for (const tenant of erp.tenants) {
      const got = await asServer(
        db.url,
        { idEmpresa: tenant },
        async (c) => (await c.query<{ id_empresa: number }>('select id_empresa from app.pedidos')).rows,
      );
      expect(got.length).toBe(orders.filter((o) => o.idEmpresa === tenant).length);
      expect(new Set(got.map((r) => r.id_empresa))).toEqual(new Set([tenant]));
    }
  });

  it('gives a representative only their own rows', async () => {
    const rep = orders[0] as { idEmpresa: number; codVendedor: number };
    const got = await asServer(
      db.url,
      rep,
      async (c) => (await c.query<{ cod_vendedor: number }>('select cod_vendedor from app.pedidos')).rows,
    );
    expect(got.length).toBe(
      orders.filter((o) => o.codVendedor === rep.codVendedor && o.idEmpresa === rep.idEmpresa).length,
    );
    expect(new Set(got.map((r) => r.cod_vendedor))).toEqual(new Set([rep.codVendedor]));
  });

  it('cannot write a row into another tenant', async () => {
    const [t1, t2] = erp.tenants;
    await expect(
      asServer(db.url, { idEmpresa: t1 }, (c) =>
        c.query(
          `insert into app.pedidos (id_empresa, cod_vendedor, num_ped_sar, id_cliente, nome_cliente)
           values ($1, 1, 999, 1, 'x')`,
          [t2],
        ),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it("binds every app table that holds tenants' rows, but app.usuarios", async () => {
    // A table added later (the change log's, its build records) gets its policy too; a login is
    // looked up before any tenant is known (docs/security.md).
    const { rows } = await db.pool.query<{ table: string; policy: boolean }>(
      `select c.relname as table, c.relrowsecurity
              and exists (select 1 from pg_policy p where p.polrelid = c.oid and p.polname = 'empresa') as policy
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'app' and c.relkind in ('r', 'p')
          and exists (select 1 from pg_attribute a
                       where a.attrelid = c.oid and a.attname = 'id_empresa' and not a.attisdropped)
        order by 1`,
    );
    expect(rows.map((r) => r.table)).toContain('sync_construidas');
    expect(rows.filter((r) => !r.policy).map((r) => r.table)).toEqual(['usuarios']);
  });

  it('cannot touch the ERP tables directly', async () => {
    await expect(
      asServer(db.url, { idEmpresa: erp.tenants[0] }, (c) => c.query('select * from corrent limit 1')),
    ).rejects.toThrow(/permission denied/);
  });

  it('refuses to grant a superuser', async () => {
    await expect(grantServerRole(db.pool, 'postgres')).rejects.toThrow(/superuser/);
  });
});
