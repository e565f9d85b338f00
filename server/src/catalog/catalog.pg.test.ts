// The catalog against a real LATIN1 PostgreSQL. Prices, counts and products come from the ERP's
// own tables (produtos, pautas, pautas_precos) read by this test; badges and conditions come
// from rules this test writes into app.regras_desconto itself.
import {
  addDays,
  businessDate,
  type CatalogItem,
  type CatalogPage,
  type CatalogProduct,
  type CatalogSync,
  foldSearchText,
  type Problem,
} from '@campo/shared';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { type Api, aRule, signedIn } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import type { SessionUser } from '../../../test/support/session.ts';
import { createDb } from '../db/kysely.ts';
import type { AuthContext } from '../http/env.ts';
import { listCatalog } from './service.ts';

const db = useTestDatabase();

interface ErpProduct {
  id: number;
  cod_produto: string;
  descricao: string;
  cod_grupo: number;
  cod_subgrupo: number;
  ativo: boolean;
}

const today = businessDate();
const sortIds = (ids: number[]) => [...ids].sort((a, b) => a - b);

async function allPages(
  api: Api,
  query = '',
): Promise<{ items: CatalogItem[]; total: number; idPauta: number | null }> {
  const items: CatalogItem[] = [];
  let total = 0;
  let idPauta: number | null = null;
  for (let page = 1; page < 100; page++) {
    const res = await api('GET', `/catalog?pageSize=100&page=${page}${query ? `&${query}` : ''}`);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as CatalogPage;
    total = body.total;
    idPauta = body.idPauta;
    items.push(...body.items);
    if (body.items.length < 100) break;
  }
  return { items, total, idPauta };
}

describe('catalog', () => {
  let t1: number;
  let t2: number;
  let rep: { codVendedor: number; codSupervisor: number };
  let otherRep: number;
  let as: Record<'rep' | 'otherRep' | 'supervisor' | 'manager' | 'foreignAdmin', Api>;
  let products: ErpProduct[];

  const insertRule = async (rule: {
    grupo?: number | null;
    subgrupo?: number | null;
    representante?: number | null;
    idPauta?: number | null;
    promocao: boolean;
    inicio?: string;
    fim?: string | null;
    percent?: number;
    idEmpresa?: number;
  }): Promise<number> =>
    aRule(db.pool, {
      idEmpresa: rule.idEmpresa ?? t1,
      descricao: 'Regra do teste de catálogo',
      grupo: rule.grupo ?? null,
      subgrupo: rule.subgrupo ?? null,
      representante: rule.representante ?? null,
      idPauta: rule.idPauta ?? null,
      percent: rule.percent ?? 8,
      from: rule.inicio ?? addDays(today, -1),
      to: rule.fim === undefined ? addDays(today, 1) : rule.fim,
      promocao: rule.promocao,
    });

  const badgesOf = async (api: Api, query = '') => {
    const { items } = await allPages(api, query);
    return new Map(items.map((i) => [i.id, i.badges]));
  };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1, t2] = erp.tenants as [number, number];
    const reps = erp.reps.filter((r) => r.idEmpresa === t1);
    if (!reps[0] || !reps[1]) throw new Error('the tiny fixture lacks two representatives');
    rep = reps[0];
    otherRep = reps[1].codVendedor;
    const app = testApp(db.pool);
    const login = (name: string, user: Omit<SessionUser, 'login'>) =>
      signedIn(app, db.pool, { ...user, login: `${name}@catalog.test` });
    as = {
      rep: await login('rep', { role: 'representative', idEmpresa: t1, codVendedor: rep.codVendedor }),
      otherRep: await login('rep2', { role: 'representative', idEmpresa: t1, codVendedor: otherRep }),
      supervisor: await login('sup', { role: 'supervisor', idEmpresa: t1, codSupervisor: rep.codSupervisor }),
      manager: await login('manager', { role: 'manager', idEmpresa: t1 }),
      foreignAdmin: await login('foreign', { role: 'admin', idEmpresa: t2 }),
    };
    products = (
      await db.pool.query<ErpProduct>(
        `select p.id_produto as id, p.cod_produto, p.descricao, p.cod_grupo, p.cod_subgrupo, p.ativo = 'S' as ativo
           from public.produtos p join public.empresas e on e.id_empresa = p.id_empresa
          where coalesce(e.id_matriz, e.id_empresa) = $1 order by p.id_produto`,
        [t1],
      )
    ).rows;
  });

  beforeEach(async () => {
    await db.pool.query('delete from app.regras_desconto');
  });

  describe('GET /catalog', () => {
    it('lists only the active products of the tenant', async () => {
      const { items, total } = await allPages(as.rep);
      const active = products.filter((p) => p.ativo).map((p) => p.id);
      expect(products.some((p) => !p.ativo)).toBe(true);
      expect(total).toBe(active.length);
      expect(sortIds(items.map((i) => i.id))).toEqual(active);
      const foreign = await allPages(as.foreignAdmin);
      expect(foreign.items.some((i) => active.includes(i.id))).toBe(false);
    });

    it('prices on the chosen pauta as the ERP’s price list says, and defaults to the first active one', async () => {
      const { rows: pautas } = await db.pool.query<{ id: number }>(
        `select distinct pa.id_pauta as id from public.pautas pa join public.empresas e on e.id_empresa = pa.id_empresa
          where coalesce(e.id_matriz, e.id_empresa) = $1 and pa.ativo = 'S' order by 1`,
        [t1],
      );
      expect(pautas.length).toBeGreaterThan(1);
      for (const { id: idPauta } of pautas) {
        const { rows } = await db.pool.query<{ id: number; preco: number }>(
          `select pp.id_produto as id, pp.preco::float8 as preco
             from public.pautas_precos pp join public.empresas e on e.id_empresa = pp.id_empresa
            where coalesce(e.id_matriz, e.id_empresa) = $1 and pp.id_pauta = $2`,
          [t1, idPauta],
        );
        const expected = new Map(rows.map((r) => [r.id, r.preco]));
        const page = await allPages(as.rep, `idPauta=${idPauta}`);
        expect(page.idPauta).toBe(idPauta);
        for (const item of page.items) expect(item.price, `product ${item.id}`).toBe(expected.get(item.id) ?? null);
      }
      const byDefault = await allPages(as.rep);
      expect(byDefault.idPauta).toBe(pautas[0]?.id);
      const someProduct = byDefault.items[0] as CatalogItem;
      // A product without a price on the list comes with a null price.
      await db.pool.query('delete from public.pautas_precos where id_produto = $1 and id_pauta = $2', [
        someProduct.id,
        pautas[0]?.id,
      ]);
      const after = await allPages(as.rep);
      expect(after.items.find((i) => i.id === someProduct.id)?.price).toBeNull();
    });

    it('answers 404 for a pauta the tenant does not have', async () => {
      const res = await as.rep('GET', '/catalog?idPauta=999999');
      expect(res.status).toBe(404);
      expect(((await res.json()) as Problem).code).toBe('PAUTA_NOT_FOUND');
    });

    it('searches description and code, ignoring case and accents', async () => {
      const accented = products.find((p) => p.ativo && /[áâãéêíóôõúç]/.test(p.descricao));
      if (!accented) throw new Error('the fixture has no accented product');
      const word = accented.descricao.split(' ').find((w) => /[áâãéêíóôõúç]/.test(w)) ?? '';
      const needle = foldSearchText(word);
      const expected = products
        .filter(
          (p) =>
            p.ativo && (foldSearchText(p.descricao).includes(needle) || foldSearchText(p.cod_produto).includes(needle)),
        )
        .map((p) => p.id);
      for (const q of [word, needle.toUpperCase()]) {
        const { items } = await allPages(as.rep, `q=${encodeURIComponent(q)}`);
        expect(sortIds(items.map((i) => i.id)), q).toEqual(expected);
      }
      const byCode = products.find((p) => p.ativo) as ErpProduct;
      const { items } = await allPages(as.rep, `q=${encodeURIComponent(byCode.cod_produto.toLowerCase())}`);
      expect(items.map((i) => i.id)).toContain(byCode.id);
      expect(items.every((i) => i.code.toLowerCase().includes(byCode.cod_produto.toLowerCase()))).toBe(true);
    });

    it('filters by group and subgroup', async () => {
      const sample = products.find((p) => p.ativo) as ErpProduct;
      const inGroup = products.filter((p) => p.ativo && p.cod_grupo === sample.cod_grupo).map((p) => p.id);
      const inSub = products
        .filter((p) => p.ativo && p.cod_grupo === sample.cod_grupo && p.cod_subgrupo === sample.cod_subgrupo)
        .map((p) => p.id);
      expect(sortIds((await allPages(as.rep, `grupo=${sample.cod_grupo}`)).items.map((i) => i.id))).toEqual(inGroup);
      const sub = await allPages(as.rep, `grupo=${sample.cod_grupo}&subgrupo=${sample.cod_subgrupo}`);
      expect(sortIds(sub.items.map((i) => i.id))).toEqual(inSub);
      expect(inSub.length).toBeLessThan(inGroup.length);
      const res = await as.rep('GET', `/catalog?subgrupo=${sample.cod_subgrupo}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as Problem).errors?.map((e) => e.path)).toEqual(['query.subgrupo']);
    });

    it('refuses page sizes outside 1..100', async () => {
      for (const q of ['pageSize=0', 'pageSize=101', 'page=0']) {
        expect((await as.rep('GET', `/catalog?${q}`)).status, q).toBe(400);
      }
    });

    it('shows a Promocao badge for a promotion in force on the product’s group, and not on other groups', async () => {
      const sample = products.find((p) => p.ativo) as ErpProduct;
      await insertRule({ grupo: sample.cod_grupo, promocao: true });
      const badges = await badgesOf(as.rep);
      for (const p of products.filter((x) => x.ativo)) {
        expect(badges.get(p.id), `product ${p.id}`).toEqual(p.cod_grupo === sample.cod_grupo ? ['Promocao'] : []);
      }
    });

    it('shows Cond. especial for a special condition on a subgroup, beside a promotion', async () => {
      const sample = products.find((p) => p.ativo) as ErpProduct;
      await insertRule({ grupo: sample.cod_grupo, subgrupo: sample.cod_subgrupo, promocao: false });
      await insertRule({ promocao: true, percent: 3 });
      const badges = await badgesOf(as.rep);
      for (const p of products.filter((x) => x.ativo)) {
        const special = p.cod_grupo === sample.cod_grupo && p.cod_subgrupo === sample.cod_subgrupo;
        expect(badges.get(p.id)).toEqual(special ? ['Promocao', 'Cond. especial'] : ['Promocao']);
      }
    });

    it('shows no badge for a rule out of its validity, or of another tenant', async () => {
      await insertRule({ promocao: true, inicio: addDays(today, -10), fim: addDays(today, -1) });
      await insertRule({ promocao: true, inicio: addDays(today, 1), fim: null });
      await insertRule({ promocao: true, idEmpresa: t2 });
      const badges = await badgesOf(as.rep);
      expect([...badges.values()].every((b) => b.length === 0)).toBe(true);
      const foreign = await allPages(as.foreignAdmin);
      expect(foreign.items.every((i) => i.badges.includes('Promocao'))).toBe(true);
    });

    it('counts a rule ending today, and one with no end', async () => {
      await insertRule({ promocao: true, inicio: today, fim: today });
      await insertRule({ promocao: false, inicio: addDays(today, -30), fim: null });
      const badges = await badgesOf(as.rep);
      expect([...badges.values()].every((b) => b.join() === 'Promocao,Cond. especial')).toBe(true);
    });

    it('shows a rule for one representative to that representative only', async () => {
      await insertRule({ promocao: true, representante: otherRep });
      expect([...(await badgesOf(as.rep)).values()].every((b) => b.length === 0)).toBe(true);
      expect([...(await badgesOf(as.supervisor)).values()].every((b) => b.length === 0)).toBe(true);
      expect([...(await badgesOf(as.otherRep)).values()].every((b) => b.join() === 'Promocao')).toBe(true);
    });

    it('shows a rule for one pauta on that pauta only', async () => {
      await insertRule({ promocao: true, idPauta: 2 });
      expect([...(await badgesOf(as.rep, 'idPauta=1')).values()].every((b) => b.length === 0)).toBe(true);
      expect([...(await badgesOf(as.rep, 'idPauta=2')).values()].every((b) => b.join() === 'Promocao')).toBe(true);
    });

    it('judges validity on the São Paulo calendar, not UTC', async () => {
      // 01:30 UTC on the 2nd is still 22:30 on the 1st in São Paulo: a rule ending on the 1st holds.
      const now = new Date('2026-03-02T01:30:00Z');
      await insertRule({ promocao: true, inicio: '2026-02-20', fim: '2026-03-01' });
      const auth: AuthContext = {
        userId: 0,
        login: 'clock@catalog.test',
        name: 'clock',
        role: 'manager',
        idEmpresa: t1,
        codVendedor: null,
        codSupervisor: null,
      };
      const query = { page: 1, pageSize: 5 };
      const kdb = createDb(db.pool);
      const onTheFirst = await listCatalog(kdb, auth, query, now);
      expect(onTheFirst.items.every((i) => i.badges.includes('Promocao'))).toBe(true);
      const onTheSecond = await listCatalog(kdb, auth, query, new Date('2026-03-02T03:30:00Z'));
      expect(onTheSecond.items.every((i) => i.badges.length === 0)).toBe(true);
    });
  });

  describe('GET /catalog/{id}', () => {
    it('answers every price of the product and the conditions that reach it for the caller', async () => {
      const sample = products.find((p) => p.ativo) as ErpProduct;
      const otherGroup = products.find((p) => p.cod_grupo !== sample.cod_grupo) as ErpProduct;
      const promo = await insertRule({ grupo: sample.cod_grupo, promocao: true, percent: 12 });
      const special = await insertRule({ idPauta: 2, promocao: false, percent: 4, fim: null });
      await insertRule({ grupo: otherGroup.cod_grupo, promocao: true });
      await insertRule({ promocao: true, representante: otherRep });
      await insertRule({ promocao: true, fim: addDays(today, -1), inicio: addDays(today, -5) });

      const res = await as.rep('GET', `/catalog/${sample.id}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as CatalogProduct;
      const { rows } = await db.pool.query<{ id_pauta: number; preco: number }>(
        'select id_pauta, preco::float8 as preco from public.pautas_precos where id_produto = $1 order by id_pauta',
        [sample.id],
      );
      expect(body.prices.map((p) => ({ id_pauta: p.idPauta, preco: p.price }))).toEqual(rows);
      expect(body.code).toBe(sample.cod_produto);
      expect(body.description).toBe(sample.descricao);
      expect(body.conditions.map((c) => c.id)).toEqual([promo, special]);
      expect(body.conditions[0]).toMatchObject({ percent: 12, promotion: true, badge: 'Promocao', idPauta: null });
      expect(body.conditions[1]).toMatchObject({
        percent: 4,
        promotion: false,
        badge: 'Cond. especial',
        idPauta: 2,
        validFrom: addDays(today, -1),
        validTo: null,
      });
      const forOther = (await (await as.otherRep('GET', `/catalog/${sample.id}`)).json()) as CatalogProduct;
      expect(forOther.conditions).toHaveLength(3);
    });

    it('answers an inactive product, and 404 for another tenant’s or an unknown one', async () => {
      const inactive = products.find((p) => !p.ativo) as ErpProduct;
      const res = await as.rep('GET', `/catalog/${inactive.id}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as CatalogProduct).active).toBe(false);
      expect((await as.foreignAdmin('GET', `/catalog/${inactive.id}`)).status).toBe(404);
      expect((await as.rep('GET', '/catalog/2147483647')).status).toBe(404);
      expect((await as.rep('GET', '/catalog/x1')).status).toBe(400);
    });
  });

  describe('POST /catalog/sync', () => {
    it('answers what the ERP catalog of the tenant holds', async () => {
      const { rows } = await db.pool.query<{ products: number; active: number; prices: number }>(
        `select (select count(*)::int from public.produtos p join public.empresas e on e.id_empresa = p.id_empresa
                  where coalesce(e.id_matriz, e.id_empresa) = $1) as products,
                (select count(*)::int from public.produtos p join public.empresas e on e.id_empresa = p.id_empresa
                  where coalesce(e.id_matriz, e.id_empresa) = $1 and p.ativo = 'S') as active,
                (select count(*)::int from public.pautas_precos pp join public.empresas e on e.id_empresa = pp.id_empresa
                  where coalesce(e.id_matriz, e.id_empresa) = $1) as prices`,
        [t1],
      );
      const before = Date.now();
      const res = await as.supervisor('POST', '/catalog/sync');
      expect(res.status).toBe(200);
      const body = (await res.json()) as CatalogSync;
      expect(body).toMatchObject({
        products: rows[0]?.products,
        activeProducts: rows[0]?.active,
        prices: rows[0]?.prices,
      });
      expect(Date.parse(body.checkedAt)).toBeGreaterThanOrEqual(before - 1000);
    });
  });
});
