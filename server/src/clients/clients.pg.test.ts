// The client portfolio against a real LATIN1 PostgreSQL. Expected values come from the ERP's
// own tables (corrent, pedidos_venda, titulos_receber), read by this test with its own SQL,
// never through the server's queries or the app views.
import {
  CLIENT_TITLES_SYNC_MAX,
  type ClientDetail,
  type ClientOrders,
  type ClientPage,
  type ClientSummary,
  type ClientTitlePage,
  type ErpOrder,
  foldSearchText,
  formatCnpj,
  formatCpf,
  type Problem,
  readCp1252,
} from '@campo/shared';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { signedIn } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { TEST_ENCODING, useTestDatabase } from '../../../test/support/pg.ts';
import { apiAs, pullClients, type SessionUser } from '../../../test/support/session.ts';
import { createDb } from '../db/kysely.ts';
import { refreshCollection } from '../sync/service.ts';
import { foldSql } from './search.ts';

const db = useTestDatabase();

type Api = ReturnType<typeof apiAs>;

interface ErpClient {
  id: number;
  razao_social: string;
  nome_fantasia: string | null;
  cidade: string | null;
  cnpj_cpf: string;
  tipo_pessoa: string;
  cod_vendedor: number;
}

const sortIds = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** Every page of GET /clients with the query, concatenated. */
async function allPages(api: Api, query = ''): Promise<{ items: ClientSummary[]; total: number }> {
  const items: ClientSummary[] = [];
  let total = 0;
  for (let page = 1; page < 100; page++) {
    const res = await api('GET', `/clients?pageSize=100&page=${page}${query ? `&${query}` : ''}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as ClientPage;
    total = body.total;
    items.push(...body.items);
    if (body.items.length < 100) break;
  }
  return { items, total };
}

describe('clients', () => {
  let t1: number;
  let t2: number;
  let rep: { codVendedor: number; codSupervisor: number };
  let as: Record<'rep' | 'supervisor' | 'manager' | 'admin' | 'foreignAdmin', Api>;
  /** Every client of tenant 1, straight from the ERP table. */
  let tenantClients: ErpClient[];

  const erpClients = async (idEmpresa: number): Promise<ErpClient[]> =>
    (
      await db.pool.query<ErpClient>(
        `select c.id_corrent as id, c.razao_social, c.nome_fantasia, c.cidade, c.cnpj_cpf, c.tipo_pessoa, c.cod_vendedor
           from public.corrent c join public.empresas e on e.id_empresa = c.id_empresa
          where coalesce(e.id_matriz, e.id_empresa) = $1 and c.tipo = 'C'
          order by c.id_corrent`,
        [idEmpresa],
      )
    ).rows;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1, t2] = erp.tenants as [number, number];
    const first = erp.reps.find((r) => r.idEmpresa === t1);
    if (!first) throw new Error('the tiny fixture has no representative');
    rep = first;
    const app = testApp(db.pool);
    const login = async (name: string, user: Omit<SessionUser, 'login'>) =>
      signedIn(app, db.pool, { ...user, login: `${name}@clients.test` });
    as = {
      rep: await login('rep', { role: 'representative', idEmpresa: t1, codVendedor: rep.codVendedor }),
      supervisor: await login('sup', { role: 'supervisor', idEmpresa: t1, codSupervisor: rep.codSupervisor }),
      manager: await login('manager', { role: 'manager', idEmpresa: t1 }),
      admin: await login('admin', { role: 'admin', idEmpresa: t1 }),
      foreignAdmin: await login('foreign', { role: 'admin', idEmpresa: t2 }),
    };
    tenantClients = await erpClients(t1);
  });

  describe('GET /clients', () => {
    it('gives a representative exactly their portfolio', async () => {
      const { items, total } = await allPages(as.rep);
      const expected = tenantClients.filter((c) => c.cod_vendedor === rep.codVendedor).map((c) => c.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(total).toBe(expected.length);
      expect(sortIds(items.map((c) => c.id))).toEqual(expected);
      expect(new Set(items.map((c) => c.codVendedor))).toEqual(new Set([rep.codVendedor]));
    });

    it('gives a supervisor, a manager and an admin every client of the tenant, and another tenant only its own', async () => {
      const expected = tenantClients.map((c) => c.id);
      expect(new Set(tenantClients.map((c) => c.cod_vendedor)).size).toBeGreaterThan(1);
      for (const api of [as.supervisor, as.manager, as.admin]) {
        const { items, total } = await allPages(api);
        expect(total).toBe(expected.length);
        expect(sortIds(items.map((c) => c.id))).toEqual(expected);
      }
      const foreign = await allPages(as.foreignAdmin);
      expect(sortIds(foreign.items.map((c) => c.id))).toEqual((await erpClients(t2)).map((c) => c.id));
    });

    it('answers the summary fields from the ERP registration', async () => {
      const { items } = await allPages(as.supervisor);
      for (const item of items) {
        const erp = tenantClients.find((c) => c.id === item.id);
        expect(erp).toBeDefined();
        expect(item.name).toBe(erp?.razao_social);
        expect(item.document).toBe(erp?.cnpj_cpf);
        expect(item.documentType).toBe(erp?.tipo_pessoa === 'F' ? 'CPF' : 'CNPJ');
        expect(item.city).toBe(erp?.cidade);
      }
    });

    it('finds by an accented name typed without accents or in capitals', async () => {
      const accented = tenantClients.find((c) => /[çãéâêíóõú]/.test(c.razao_social));
      if (!accented) throw new Error('the fixture has no accented client name');
      const word = accented.razao_social.split(' ').find((w) => /[çãéâêíóõú]/.test(w)) ?? '';
      const needle = foldSearchText(word);
      const expected = tenantClients
        .filter((c) => [c.razao_social, c.nome_fantasia, c.cidade].some((t) => t && foldSearchText(t).includes(needle)))
        .map((c) => c.id);
      for (const q of [word, word.toUpperCase(), needle, needle.toUpperCase()]) {
        const { items, total } = await allPages(as.supervisor, `q=${encodeURIComponent(q)}`);
        expect(total, q).toBe(expected.length);
        expect(sortIds(items.map((c) => c.id))).toEqual(expected);
      }
      expect(expected).toContain(accented.id);
    });

    it("finds D´Ávila, and D’Ávila as an old Windows ERP stores it (byte 0x92), when D'Ávila is typed", async () => {
      const [acute, cp1252] = tenantClients;
      if (!acute || !cp1252) throw new Error('the fixture has fewer than two clients');
      // chr() in a LATIN1 database gives the byte: 180 is the acute accent, 146 the
      // Windows-1252 right single quote that PostgreSQL knows only as the control U+0092. In a
      // WIN1252 database byte 146 is that quote itself; a UTF8 one stores it as U+2019.
      await db.pool.query(
        `update corrent set razao_social = case id_corrent when $1 then 'Mercado D' || chr(180) || 'Avila'
                                                         else 'Padaria D' || chr($3) || 'Avila' end
          where id_corrent in ($1, $2)`,
        [acute.id, cp1252.id, TEST_ENCODING === 'UTF8' ? 0x2019 : 146],
      );
      try {
        for (const q of ["D'Ávila", 'd´avila', 'D’AVILA', 'D`Ávila']) {
          const { items } = await allPages(as.supervisor, `q=${encodeURIComponent(q)}`);
          expect(sortIds(items.map((c) => c.id)), q).toEqual(sortIds([acute.id, cp1252.id]));
        }
      } finally {
        await db.pool.query(
          'update corrent set razao_social = t.nome from unnest($1::int[], $2::text[]) as t(id, nome) where id_corrent = t.id',
          [
            [acute.id, cp1252.id],
            [acute.razao_social, cp1252.razao_social],
          ],
        );
      }
    });

    it('finds by CNPJ and CPF with and without mask', async () => {
      const company = tenantClients.find((c) => c.tipo_pessoa === 'J');
      const person = tenantClients.find((c) => c.tipo_pessoa === 'F');
      if (!company || !person) throw new Error('the fixture lacks a CNPJ or a CPF client');
      for (const [client, masked] of [
        [company, formatCnpj(company.cnpj_cpf)],
        [person, formatCpf(person.cnpj_cpf)],
      ] as const) {
        expect(masked).not.toBe(client.cnpj_cpf);
        for (const q of [masked, client.cnpj_cpf]) {
          const { items } = await allPages(as.supervisor, `q=${encodeURIComponent(q)}`);
          expect(items.map((c) => c.id)).toEqual([client.id]);
        }
      }
    });

    it('finds by city, every word having to match', async () => {
      const city = tenantClients.map((c) => c.cidade ?? '').find((name) => name.includes(' ') && /[ãéí]/.test(name));
      if (!city) throw new Error('the fixture has no accented city of two words');
      const words = foldSearchText(city).split(' ');
      const expected = tenantClients
        .filter((c) =>
          words.every((w) =>
            [c.razao_social, c.nome_fantasia, c.cidade].some((t) => t && foldSearchText(t).includes(w)),
          ),
        )
        .map((c) => c.id);
      const { items } = await allPages(as.supervisor, `q=${encodeURIComponent(city.toLowerCase())}`);
      expect(sortIds(items.map((c) => c.id))).toEqual(expected);
      expect(items.some((c) => c.city === city)).toBe(true);
    });

    it('takes LIKE wildcards in a search literally', async () => {
      const { total } = await allPages(as.supervisor, `q=${encodeURIComponent('%')}`);
      expect(total).toBe(tenantClients.filter((c) => `${c.razao_social}${c.nome_fantasia}`.includes('%')).length);
    });

    it('filters by financial status, as the receivables and the manual block say', async () => {
      // Today in São Paulo, as the API's transactions count it: the test's own session keeps
      // the server's zone, whose date is a day ahead from 21:00 São Paulo time.
      const { rows } = await db.pool.query<{ id: number; status: string }>(
        `with hoje as (select (now() at time zone 'America/Sao_Paulo')::date as d)
         select c.id_corrent as id,
                case
                  when c.situacao = 'B' or exists (select 1 from public.titulos_receber t
                                                    where t.id_corrent = c.id_corrent and t.valor_pago < t.valor
                                                      and t.dt_vencimento < (select d from hoje) - 30) then 'blocked'
                  when exists (select 1 from public.titulos_receber t
                                where t.id_corrent = c.id_corrent and t.valor_pago < t.valor
                                  and t.dt_vencimento < (select d from hoje)) then 'overdue'
                  else 'ok'
                end as status
           from public.corrent c join public.empresas e on e.id_empresa = c.id_empresa
          where coalesce(e.id_matriz, e.id_empresa) = $1 and c.tipo = 'C'`,
        [t1],
      );
      for (const status of ['ok', 'overdue', 'blocked'] as const) {
        const expected = rows.filter((r) => r.status === status).map((r) => r.id);
        const { items } = await allPages(as.supervisor, `financialStatus=${status}`);
        expect(sortIds(items.map((c) => c.id)), status).toEqual(sortIds(expected));
        expect(items.every((c) => c.financialStatus === status)).toBe(true);
      }
      expect(new Set(rows.map((r) => r.status)).size).toBeGreaterThan(1);
    });

    it('filters by activity: inactive after 30 days without an order, or with none ever', async () => {
      // The ERP's dates and times are São Paulo's, as the API's sessions read them (db/scope.ts):
      // in UTC an ERP order of 10:51 thirty days ago would fall on the other side of the line
      // three hours a day.
      const { rows } = await db.pool.query<{ id: number; active: boolean; never: boolean }>(
        `select id, coalesce(last >= now() - interval '30 days', false) as active, last is null as never
           from (select c.id_corrent as id,
                        greatest((select max(p.criado_em) from app.pedidos p
                                   where p.id_cliente = c.id_corrent and p.situa <> 4),
                                 (select max(pv.dt_emissao) at time zone 'America/Sao_Paulo' from public.pedidos_venda pv
                                   where pv.id_corrent = c.id_corrent and pv.situacao <> 'C'),
                                 c.dt_ultima_compra::timestamp at time zone 'America/Sao_Paulo') as last
                   from public.corrent c join public.empresas e on e.id_empresa = c.id_empresa
                  where coalesce(e.id_matriz, e.id_empresa) = $1 and c.tipo = 'C') x`,
        [t1],
      );
      const active = await allPages(as.supervisor, 'activityStatus=active');
      const inactive = await allPages(as.supervisor, 'activityStatus=inactive');
      expect(sortIds(active.items.map((c) => c.id))).toEqual(sortIds(rows.filter((r) => r.active).map((r) => r.id)));
      expect(sortIds(inactive.items.map((c) => c.id))).toEqual(sortIds(rows.filter((r) => !r.active).map((r) => r.id)));
      expect(active.items.every((c) => c.activityStatus === 'active')).toBe(true);
      expect(inactive.items.every((c) => c.activityStatus === 'inactive')).toBe(true);
      const never = rows.filter((r) => r.never).map((r) => r.id);
      expect(never.length).toBeGreaterThan(0);
      for (const c of inactive.items.filter((i) => never.includes(i.id))) expect(c.lastOrderAt).toBeNull();
      expect(active.total + inactive.total).toBe(tenantClients.length);
    });

    it('combines filters with the portfolio of a representative', async () => {
      const mine = (await allPages(as.rep)).items;
      const { items } = await allPages(as.rep, 'activityStatus=inactive&financialStatus=ok');
      expect(sortIds(items.map((c) => c.id))).toEqual(
        sortIds(mine.filter((c) => c.activityStatus === 'inactive' && c.financialStatus === 'ok').map((c) => c.id)),
      );
    });

    it('refuses page sizes outside 1..100 and page 0 with a 400 naming the field', async () => {
      for (const [query, field] of [
        ['pageSize=0', 'query.pageSize'],
        ['pageSize=101', 'query.pageSize'],
        ['page=0', 'query.page'],
        ['page=abc', 'query.page'],
        ['activityStatus=sleeping', 'query.activityStatus'],
        ['financialStatus=late', 'query.financialStatus'],
      ]) {
        const res = await as.supervisor('GET', `/clients?${query}`);
        expect(res.status, query).toBe(400);
        const body = (await res.json()) as Problem;
        expect(body.code).toBe('VALIDATION_FAILED');
        expect(body.errors?.map((e) => e.path)).toEqual([field]);
      }
    });

    it('pages in a stable order up to a short last page, and past it answers nothing', async () => {
      const size = 7;
      const all = tenantClients.length;
      const last = Math.ceil(all / size);
      const seen: number[] = [];
      for (let page = 1; page <= last + 1; page++) {
        const res = await as.supervisor('GET', `/clients?pageSize=${size}&page=${page}`);
        const body = (await res.json()) as ClientPage;
        expect(body).toMatchObject({ page, pageSize: size, total: all });
        const want = page < last ? size : page === last ? all - size * (last - 1) : 0;
        expect(body.items.length, `page ${page}`).toBe(want);
        seen.push(...body.items.map((c) => c.id));
      }
      expect(sortIds(seen)).toEqual(tenantClients.map((c) => c.id));
    });

    it('defaults to 50 per page', async () => {
      const body = (await (await as.supervisor('GET', '/clients')).json()) as ClientPage;
      expect(body.pageSize).toBe(50);
      expect(body.items.length).toBe(Math.min(50, tenantClients.length));
    });
  });

  describe('GET /clients/{id}', () => {
    it('shows a client of the portfolio with address, contact and finances from the ERP', async () => {
      const id = tenantClients.find((c) => c.cod_vendedor === rep.codVendedor)?.id;
      const res = await as.rep('GET', `/clients/${id}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as ClientDetail;
      const { rows } = await db.pool.query(
        `select c.endereco, c.numero, c.bairro, c.cep, c.telefone, c.email, c.inscricao_estadual, c.ativo,
                coalesce((select sum(t.valor - t.valor_pago) from public.titulos_receber t
                           where t.id_corrent = c.id_corrent and t.valor_pago < t.valor), 0)::float8 as aberto
           from public.corrent c where c.id_corrent = $1`,
        [id],
      );
      const erp = rows[0];
      expect(body.id).toBe(id);
      expect(body.address).toMatchObject({
        street: erp.endereco,
        number: erp.numero,
        district: erp.bairro,
        cep: erp.cep,
      });
      expect(body.deliveryAddress).toContain(erp.endereco);
      expect(body.deliveryAddress).toContain(erp.cep);
      expect(body.phone).toBe(erp.telefone);
      expect(body.email).toBe(erp.email);
      expect(body.stateRegistration).toBe(erp.inscricao_estadual);
      expect(body.registrationActive).toBe(erp.ativo === 'S');
      expect(body.openAmount).toBeCloseTo(erp.aberto, 2);
    });

    it('keeps LATIN1 text identical on the way back: ç, ã, é', async () => {
      const name = 'Padaria Pão de Açúcar & Café Ação Ltda';
      const id = tenantClients.find((c) => c.cod_vendedor === rep.codVendedor)?.id;
      await db.pool.query('update public.corrent set razao_social = $2, cidade = $3 where id_corrent = $1', [
        id,
        name,
        'Conceição do Araguaia',
      ]);
      const body = (await (await as.rep('GET', `/clients/${id}`)).json()) as ClientDetail;
      expect(body.name).toBe(name);
      expect(body.city).toBe('Conceição do Araguaia');
      const found = (await (await as.rep('GET', '/clients?q=PAO%20DE%20ACUCAR')).json()) as ClientPage;
      expect(found.items.map((c) => c.name)).toEqual([name]);
    });

    it('answers 404 for another representative’s client, another tenant’s client and an unknown id', async () => {
      const other = tenantClients.find((c) => c.cod_vendedor !== rep.codVendedor)?.id;
      const foreign = (await erpClients(t2))[0]?.id;
      const notFound = async (api: Api, path: string) => {
        const res = await api('GET', path);
        expect(res.status, path).toBe(404);
        expect(((await res.json()) as Problem).code).toBe('NOT_FOUND');
      };
      await notFound(as.rep, `/clients/${other}`);
      await notFound(as.rep, `/clients/${other}/orders`);
      await notFound(as.supervisor, `/clients/${foreign}`);
      await notFound(as.admin, `/clients/${foreign}/orders`);
      await notFound(as.admin, '/clients/2147483647');
      expect((await as.supervisor('GET', `/clients/${other}`)).status).toBe(200);
      expect((await as.rep('GET', '/clients/abc')).status).toBe(400);
      expect((await as.rep('GET', '/clients/99999999999')).status).toBe(400);
    });

    it('answers 401 without a token', async () => {
      expect((await apiAs(testApp(db.pool), null)('GET', '/clients')).status).toBe(401);
    });
  });

  describe('GET /clients/{id}/orders', () => {
    it('answers the latest 10, newest first, Campo and ERP orders alike', async () => {
      const client = tenantClients.find((c) => c.cod_vendedor === rep.codVendedor) as ErpClient;
      // The ERP ties an order to the company the representative is registered in.
      const company = (
        await db.pool.query<{ id: number }>(
          `select v.id_empresa as id from public.vendedores v join public.empresas e on e.id_empresa = v.id_empresa
            where coalesce(e.id_matriz, e.id_empresa) = $1 and v.cod_vendedor = $2 limit 1`,
          [t1, rep.codVendedor],
        )
      ).rows[0]?.id;
      // Eleven new ERP orders over the last days, so the client has more than ten.
      for (let i = 1; i <= 11; i++) {
        await db.pool.query(
          `insert into public.pedidos_venda (id_empresa, num_pedido, id_corrent, cod_vendedor, dt_emissao, situacao, valor_total)
           values ($1, (select coalesce(max(num_pedido), 0) + 1 from public.pedidos_venda where id_empresa = $1),
                   $2, $3, localtimestamp - make_interval(hours => $4), 'A', $5)`,
          [company, client.id, rep.codVendedor, i * 5, 100 + i],
        );
      }
      const campo = await db.pool.query<{ id: number }>(
        `insert into app.pedidos (id_empresa, cod_vendedor, num_ped_sar, id_cliente, nome_cliente, valor_total, criado_em)
         values ($1, $2, 987654, $3, $4, 321.5, now() - interval '12 hours') returning id`,
        [t1, rep.codVendedor, client.id, client.razao_social],
      );
      const { rows: expected } = await db.pool.query<{ source: string; number: number; total: number; status: string }>(
        `select source, number, total::float8 as total, status from (
           select 'campo' as source, p.num_ped_sar as number, p.valor_total as total, p.criado_em as at,
                  'pending_approval' as status
             from app.pedidos p where p.id_cliente = $1
           union all
           select 'erp', pv.num_pedido, pv.valor_total, pv.dt_emissao at time zone 'America/Sao_Paulo',
                  case pv.situacao when 'F' then 'invoiced' when 'C' then 'cancelled' else 'approved' end
             from public.pedidos_venda pv
            where pv.id_corrent = $1 and pv.id_pedido not in (select erp_id_pedido from app.pedidos where erp_id_pedido is not null)
         ) o order by at desc limit 10`,
        [client.id],
      );
      const res = await as.rep('GET', `/clients/${client.id}/orders`);
      expect(res.status).toBe(200);
      const { items } = (await res.json()) as ClientOrders;
      expect(items).toHaveLength(10);
      expect(items.map((o) => ({ source: o.source, number: o.number, total: o.total, status: o.status }))).toEqual(
        expected,
      );
      const dates = items.map((o) => Date.parse(o.date));
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
      const mine = items.find((o) => o.source === 'campo');
      expect(mine).toMatchObject({ id: campo.rows[0]?.id, number: 987654, status: 'pending_approval', erpId: null });
      expect(items.filter((o) => o.source === 'erp').every((o) => o.erpId !== null)).toBe(true);
    });
  });

  describe('GET /clients/{id}/erp-orders/{erpId}', () => {
    it("answers an ERP order of the rep's client with its lines, and 404 outside the portfolio", async () => {
      // An ERP order of one of the rep's clients that has lines in the fixture.
      const { rows } = await db.pool.query<{ erp_id: number; id_cliente: number; num_pedido: number }>(
        `select pv.id_pedido as erp_id, pv.id_corrent as id_cliente, pv.num_pedido
           from public.pedidos_venda pv join public.corrent c on c.id_corrent = pv.id_corrent
          where c.cod_vendedor = $1
            and exists (select 1 from public.pedidos_venda_itens i where i.id_pedido = pv.id_pedido)
            and not exists (select 1 from app.pedidos p where p.erp_id_pedido = pv.id_pedido)
          order by pv.id_pedido limit 1`,
        [rep.codVendedor],
      );
      const order = rows[0];
      if (!order) throw new Error('the fixture has no ERP order with lines for the representative');
      const { rows: lines } = await db.pool.query<{ seq: number; id_produto: number; quantidade: number }>(
        `select seq, id_produto, quantidade::float8 as quantidade from public.pedidos_venda_itens
          where id_pedido = $1 order by seq`,
        [order.erp_id],
      );
      const res = await as.rep('GET', `/clients/${order.id_cliente}/erp-orders/${order.erp_id}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as ErpOrder;
      expect(body).toMatchObject({
        source: 'erp',
        erpId: order.erp_id,
        number: order.num_pedido,
        idCliente: order.id_cliente,
      });
      expect(body.lines.map((l) => ({ seq: l.seq, id_produto: l.idProduto, quantidade: l.quantity }))).toEqual(lines);
      expect(body.lines.every((l) => l.description !== null)).toBe(true);

      // Another client's id with this order, another rep's client, another tenant: not found.
      const otherOwn = tenantClients.find((c) => c.cod_vendedor === rep.codVendedor && c.id !== order.id_cliente);
      expect((await as.rep('GET', `/clients/${otherOwn?.id}/erp-orders/${order.erp_id}`)).status).toBe(404);
      const other = tenantClients.find((c) => c.cod_vendedor !== rep.codVendedor)?.id;
      expect((await as.rep('GET', `/clients/${other}/erp-orders/${order.erp_id}`)).status).toBe(404);
      expect((await as.foreignAdmin('GET', `/clients/${order.id_cliente}/erp-orders/${order.erp_id}`)).status).toBe(
        404,
      );
      expect((await as.supervisor('GET', `/clients/${order.id_cliente}/erp-orders/${order.erp_id}`)).status).toBe(200);
    });
  });

  describe('GET /clients/{id}/titles', () => {
    it('lists open titles, the most overdue first, then those paid lately, paginated, within the scope', async () => {
      // A client of the rep with open titles in the fixture; its paid titles made recent, paid
      // in the opposite order of their due dates (the latest due paid last), but every third
      // one paid long ago, whatever the fixture's dates.
      const { rows } = await db.pool.query<{ id: number }>(
        `select t.id_corrent as id from public.titulos_receber t join public.corrent c on c.id_corrent = t.id_corrent
           join public.empresas e on e.id_empresa = c.id_empresa
          where c.cod_vendedor = $1 and coalesce(e.id_matriz, e.id_empresa) = $2 and t.valor_pago < t.valor
            and exists (select 1 from public.titulos_receber p where p.id_corrent = t.id_corrent and p.valor_pago >= p.valor)
          group by t.id_corrent order by count(*) desc, t.id_corrent limit 1`,
        [rep.codVendedor, t1],
      );
      const id = rows[0]?.id;
      if (!id) throw new Error('the fixture has no client of the rep with open and paid titles');
      await db.pool.query(
        `update public.titulos_receber t set dt_pagamento = current_date - (case when r.n % 3 <> 0 then r.n else 90 end)
           from (select id_titulo, row_number() over (order by dt_vencimento desc, id_titulo desc)::integer as n
                   from public.titulos_receber where id_corrent = $1 and valor_pago >= valor) r
          where t.id_titulo = r.id_titulo`,
        [id],
      );
      const expected = await db.pool.query<{ id: number; dias: number; pago: boolean }>(
        `select id_titulo as id, (valor_pago >= valor) as pago,
                case when valor_pago < valor then greatest(current_date - dt_vencimento, 0) else 0 end as dias
           from public.titulos_receber
          where id_corrent = $1 and (valor_pago < valor or dt_pagamento >= current_date - 60)
          order by valor_pago >= valor, case when valor_pago < valor then dt_vencimento end,
                   dt_pagamento desc, id_titulo`,
        [id],
      );
      // The latest payment first, as the docs and the OpenAPI description say: not by due date.
      const paid = await db.pool.query<{ id: number }>(
        `select id_titulo as id from public.titulos_receber
          where id_corrent = $1 and valor_pago >= valor and dt_pagamento >= current_date - 60
          order by dt_vencimento, id_titulo`,
        [id],
      );
      expect(paid.rows.length).toBeGreaterThan(1);
      expect(expected.rows.filter((r) => r.pago).map((r) => r.id)).not.toEqual(paid.rows.map((r) => r.id));
      const items: ClientTitlePage['items'] = [];
      for (let page = 1; page < 50; page++) {
        const res = await as.rep('GET', `/clients/${id}/titles?pageSize=2&page=${page}`);
        expect(res.status).toBe(200);
        const body = (await res.json()) as ClientTitlePage;
        expect(body.total).toBe(expected.rows.length);
        items.push(...body.items);
        if (body.items.length < 2) break;
      }
      expect(items.map((t) => ({ id: t.id, dias: t.diasAtraso, pago: t.pago }))).toEqual(expected.rows);
      const open = items.find((t) => !t.pago);
      expect(open?.emAberto).toBeCloseTo((open?.valor ?? 0) - (open?.valorPago ?? 0), 2);
      expect(open?.vencimento).toMatch(/^\d{4}-\d{2}-\d{2}$/);

      const onlyOpen = (await (
        await as.rep('GET', `/clients/${id}/titles?status=open&pageSize=100`)
      ).json()) as ClientTitlePage;
      expect(onlyOpen.items.map((t) => t.id)).toEqual(expected.rows.filter((r) => !r.pago).map((r) => r.id));

      // Another rep's client and another tenant: not found; the supervisor sees it.
      const other = tenantClients.find((c) => c.cod_vendedor !== rep.codVendedor)?.id;
      expect((await as.rep('GET', `/clients/${other}/titles`)).status).toBe(404);
      expect((await as.foreignAdmin('GET', `/clients/${id}/titles`)).status).toBe(404);
      expect((await as.supervisor('GET', `/clients/${id}/titles`)).status).toBe(200);
      expect((await as.rep('GET', `/clients/${id}/titles?pageSize=101`)).status).toBe(400);
    });
  });

  describe("the client's document on the representative's phone (collection clientes)", () => {
    it('carries its open titles, the most overdue first, at most CLIENT_TITLES_SYNC_MAX and a count of the rest', async () => {
      const id = tenantClients.find((c) => c.cod_vendedor === rep.codVendedor)?.id as number;
      // More open titles than the document carries, due on different days.
      await db.pool.query(
        `insert into public.titulos_receber (id_empresa, id_corrent, num_documento, dt_emissao, dt_vencimento, valor, valor_pago)
         select c.id_empresa, c.id_corrent, 'SYNC-' || n, current_date - 90, current_date - n, 100 + n, n
           from public.corrent c, generate_series(1, $2::integer) n where c.id_corrent = $1`,
        [id, CLIENT_TITLES_SYNC_MAX + 3],
      );
      await refreshCollection(createDb(db.pool), t1, 'clientes');
      const expected = await db.pool.query<{ documento: string; vencimento: string; valor: number; valorPago: number }>(
        `select num_documento as documento, to_char(dt_vencimento, 'YYYY-MM-DD') as vencimento,
                valor::float8 as valor, valor_pago::float8 as "valorPago"
           from public.titulos_receber where id_corrent = $1 and valor_pago < valor
          order by dt_vencimento, id_titulo`,
        [id],
      );
      const docs = await pullClients(as.rep);
      const doc = docs.find((d) => d.id === String(id));
      expect(doc?.titulos).toEqual(expected.rows.slice(0, CLIENT_TITLES_SYNC_MAX));
      expect(doc?.titulosAlem).toBe(expected.rows.length - CLIENT_TITLES_SYNC_MAX);
      // Only the representative's own portfolio reaches their phone.
      expect(new Set(docs.map((d) => d.codVendedor))).toEqual(new Set([rep.codVendedor]));
    });
  });

  describe('PUT /clients/{id}/credit-limit', () => {
    it('lets a manager and an admin set it, stored in app.limites_credito and shown on the client', async () => {
      const id = tenantClients[0]?.id;
      for (const [api, value] of [
        [as.manager, 15000.5],
        [as.admin, 20000.126],
      ] as const) {
        const res = await api('PUT', `/clients/${id}/credit-limit`, { creditLimit: value });
        expect(res.status).toBe(200);
        const stored = await db.pool.query<{ limite: number; atualizado_por: string }>(
          'select limite::float8 as limite, atualizado_por from app.limites_credito where id_empresa = $1 and id_cliente = $2',
          [t1, id],
        );
        expect(stored.rows).toHaveLength(1);
        expect(((await res.json()) as ClientDetail).creditLimit).toBe(stored.rows[0]?.limite);
        expect(stored.rows[0]?.limite).toBe(Math.round(value * 100) / 100);
      }
      const seen = (await (await as.supervisor('GET', `/clients/${id}`)).json()) as ClientDetail;
      expect(seen.creditLimit).toBe(20000.13);
    });

    it('is refused to representatives and supervisors (403), to bad values (400) and across tenants (404)', async () => {
      const id = tenantClients[0]?.id;
      expect((await as.rep('PUT', `/clients/${id}/credit-limit`, { creditLimit: 1 })).status).toBe(403);
      expect((await as.supervisor('PUT', `/clients/${id}/credit-limit`, { creditLimit: 1 })).status).toBe(403);
      for (const body of [{ creditLimit: -1 }, { creditLimit: '10' }, {}, { creditLimit: 1e13 }]) {
        expect((await as.manager('PUT', `/clients/${id}/credit-limit`, body)).status).toBe(400);
      }
      expect((await as.foreignAdmin('PUT', `/clients/${id}/credit-limit`, { creditLimit: 1 })).status).toBe(404);
      const untouched = await db.pool.query('select 1 from app.limites_credito where id_empresa = $1', [t2]);
      expect(untouched.rowCount).toBe(0);
    });
  });

  it('folds text in SQL exactly as foldSearchText does, for every LATIN1 character', async () => {
    // The C1 range too (Windows-1252 in ERP text: bytes in a LATIN1 database, the characters
    // themselves in WIN1252 and UTF8), except the few that fold to several characters
    // (0x80 "€" → "eur"), which translate() cannot express.
    const bytes = Array.from({ length: 0xff - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i)).filter(
      (ch) => ch !== '\u007f' && foldSearchText(ch).length === 1,
    );
    const chars =
      TEST_ENCODING === 'LATIN1' ? bytes : bytes.map(readCp1252).filter((ch) => !/[\u0080-\u009f]/u.test(ch));
    expect(chars).toContain(TEST_ENCODING === 'LATIN1' ? '\u0092' : '’');
    expect(chars).toContain('\u00b4');
    const { rows } = await sql<{
      folded: string[];
    }>`select array(select ${foldSql(sql`c`)} from unnest(${chars}::text[]) c) as folded`.execute(createDb(db.pool));
    expect(rows[0]?.folded).toEqual(chars.map(foldSearchText));
  });
});
