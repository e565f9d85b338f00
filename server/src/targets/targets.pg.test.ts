import { businessDate } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { signedIn } from '../../../test/support/builders.ts';
import { type ErpPeople, provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import type { apiAs } from '../../../test/support/session.ts';

const db = useTestDatabase();

describe('monthly targets', () => {
  let erp: ErpPeople;
  let app: ReturnType<typeof testApp>;
  let manager: ReturnType<typeof apiAs>;
  let supervisor: ReturnType<typeof apiAs>;
  let rep: ReturnType<typeof apiAs>;
  let t1: number;
  let team: ErpPeople['reps'];
  const month = businessDate().slice(0, 7);
  const previous = (() => {
    const [y, m] = month.split('-').map(Number) as [number, number];
    return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  })();

  beforeAll(async () => {
    erp = await provisionedErp(db.pool);
    app = testApp(db.pool);
    t1 = erp.tenants[0] as number;
    const first = erp.reps[0] as ErpPeople['reps'][number];
    team = erp.reps.filter((r) => r.idEmpresa === t1 && r.codSupervisor === first.codSupervisor);
    manager = await signedIn(app, db.pool, { login: 'ger@metas.test', role: 'manager', idEmpresa: t1 });
    supervisor = await signedIn(app, db.pool, {
      login: 'sup@metas.test',
      role: 'supervisor',
      idEmpresa: t1,
      codSupervisor: first.codSupervisor,
    });
    rep = await signedIn(app, db.pool, {
      login: 'rep@metas.test',
      role: 'representative',
      idEmpresa: t1,
      codVendedor: first.codVendedor,
    });
  });

  it('lists every active representative of the tenant, unset targets as null', async () => {
    const res = await manager('GET', `/metas/${month}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { codVendedor: number; valorMeta: number | null }[] };
    const { rows } = await db.pool.query(
      'select count(*)::int as n from vendedores v join empresas e on e.id_empresa = v.id_empresa where coalesce(e.id_matriz, e.id_empresa) = $1 and v.ativo = $2',
      [t1, 'S'],
    );
    expect(body.items).toHaveLength(rows[0].n);
    expect(body.items.every((i) => i.valorMeta === null)).toBe(true);
  });

  it('sets, reads back through the dashboard, and removes targets', async () => {
    const [a, b] = team as [ErpPeople['reps'][number], ErpPeople['reps'][number]];
    const res = await manager('PUT', `/metas/${month}`, {
      metas: [
        { codVendedor: a.codVendedor, valorMeta: 150000.5 },
        { codVendedor: b.codVendedor, valorMeta: 90000 },
      ],
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { items: { codVendedor: number; valorMeta: number | null }[] };
    expect(page.items.find((i) => i.codVendedor === a.codVendedor)?.valorMeta).toBe(150000.5);
    const dash = (await (await rep('GET', '/dashboard/rep')).json()) as { meta: { valor: number | null } };
    expect(dash.meta.valor).toBe(150000.5);

    await manager('PUT', `/metas/${month}`, { metas: [{ codVendedor: b.codVendedor, valorMeta: null }] });
    const { rows } = await db.pool.query(
      "select count(*)::int as n from app.metas_representante where id_empresa = $1 and cod_vendedor = $2 and mes = to_date($3, 'YYYY-MM')",
      [t1, b.codVendedor, month],
    );
    expect(rows[0].n).toBe(0);
  });

  it('refuses an unknown representative, naming the field, and changes nothing', async () => {
    const res = await manager('PUT', `/metas/${month}`, {
      metas: [
        { codVendedor: (team[0] as ErpPeople['reps'][number]).codVendedor, valorMeta: 1 },
        { codVendedor: 999_999, valorMeta: 1 },
      ],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: [{ path: 'body.metas.1.codVendedor' }] });
    const kept = (await (await manager('GET', `/metas/${month}`)).json()) as {
      items: { codVendedor: number; valorMeta: number | null }[];
    };
    expect(kept.items.find((i) => i.codVendedor === team[0]?.codVendedor)?.valorMeta).toBe(150000.5);
  });

  it('copies the previous month only where the month has no target', async () => {
    const [a, b] = team as [ErpPeople['reps'][number], ErpPeople['reps'][number]];
    await db.pool.query(
      `insert into app.metas_representante (id_empresa, cod_vendedor, mes, valor_meta)
       values ($1, $2, to_date($4, 'YYYY-MM'), 111), ($1, $3, to_date($4, 'YYYY-MM'), 222)`,
      [t1, a.codVendedor, b.codVendedor, previous],
    );
    const res = await manager('POST', `/metas/${month}/copiar-anterior`);
    expect(await res.json()).toEqual({ mes: month, copiadas: 1, mantidas: 1 });
    const page = (await (await manager('GET', `/metas/${month}`)).json()) as {
      items: { codVendedor: number; valorMeta: number | null }[];
    };
    expect(page.items.find((i) => i.codVendedor === a.codVendedor)?.valorMeta).toBe(150000.5);
    expect(page.items.find((i) => i.codVendedor === b.codVendedor)?.valorMeta).toBe(222);
  });

  it('gives a supervisor their own team only, read-only, and refuses representatives', async () => {
    const page = (await (await supervisor('GET', `/metas/${month}`)).json()) as { items: { codVendedor: number }[] };
    expect(page.items.map((i) => i.codVendedor).sort()).toEqual(team.map((r) => r.codVendedor).sort());
    expect((await supervisor('PUT', `/metas/${month}`, { metas: [{ codVendedor: 1, valorMeta: 1 }] })).status).toBe(
      403,
    );
    expect((await rep('GET', `/metas/${month}`)).status).toBe(403);
    expect((await manager('GET', '/metas/2026-13')).status).toBe(400);
  });
});
