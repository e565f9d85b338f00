// Commercial policies against a real LATIN1 PostgreSQL: the rule CRUD (manager only, tenant
// scoped, all-or-nothing fan-out over pautas), the rules in force per caller, and the ceiling
// preview checked against the discount engine fed with inputs this test reads from the ERP and
// app tables itself, not through the server's queries or views.
import {
  addDays,
  businessDate,
  type CeilingPreview,
  DEFAULT_CEILING_PERCENT,
  type DiscountRule,
  isLatin1,
  lineCeiling,
  type PolicyRule,
  type PolicyRuleCreated,
  type PolicyRulePage,
  type PolicyRuleUpdated,
  type Problem,
  type ProductGroups,
  type RepresentativeCeilings,
  type RulesInForce,
  type SyncPull,
} from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { signedIn } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import type { apiAs, logInAs } from '../../../test/support/session.ts';
import { createDb } from '../db/kysely.ts';
import { withScope } from '../db/scope.ts';
import { loadCeilingInputs } from './service.ts';

const db = useTestDatabase();

type Api = ReturnType<typeof apiAs>;
interface Rep {
  idEmpresa: number;
  codVendedor: number;
  codSupervisor: number;
}
interface Product {
  id: number;
  categoria: string;
  grupo: number;
  subgrupo: number;
}

const today = businessDate();

const ruleBody = (over: Record<string, unknown> = {}) => ({
  descricao: 'Regra de teste',
  percent: 7.5,
  vigenciaInicio: addDays(today, -10),
  vigenciaFim: addDays(today, 10),
  ...over,
});

describe('commercial policies', () => {
  let t1: number;
  let t2: number;
  let repA: Rep; // the representative caller, team of the supervisor caller
  let repB: Rep; // another team
  let repC: Rep; // another team, used for ceilings set in the test
  let pautas: number[];
  let products: Product[];
  let foreignProduct: number;
  let as: Record<'rep' | 'supervisor' | 'manager' | 'admin' | 'manager2', Api>;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    [t1, t2] = erp.tenants as [number, number];
    const reps = erp.reps.filter((r) => r.idEmpresa === t1);
    repA = reps[0] as Rep;
    repB = reps.find((r) => r.codSupervisor !== repA.codSupervisor) as Rep;
    repC = reps.find((r) => r.codSupervisor === repB.codSupervisor && r.codVendedor !== repB.codVendedor) as Rep;
    if (!repA || !repB || !repC) throw new Error('the tiny fixture lacks two teams of two');

    // Three price lists, so that one POST can fan out to three.
    const head = await db.pool.query<{ id: number }>(
      'select max(id_pauta) + 1 as id from pautas where id_empresa = $1',
      [t1],
    );
    await db.pool.query("insert into pautas (id_empresa, id_pauta, descricao) values ($1, $2, 'Tabela Teste')", [
      t1,
      head.rows[0]?.id,
    ]);
    pautas = (
      await db.pool.query<{ id_pauta: number }>(
        'select id_pauta from pautas where id_empresa = $1 order by id_pauta limit 3',
        [t1],
      )
    ).rows.map((r) => r.id_pauta);

    // One product per group, from the ERP table itself.
    products = (
      await db.pool.query<Product>(
        `select distinct on (cod_grupo) id_produto as id, categoria, cod_grupo as grupo, cod_subgrupo as subgrupo
           from produtos p join empresas e on e.id_empresa = p.id_empresa
          where coalesce(e.id_matriz, e.id_empresa) = $1 order by cod_grupo, id_produto`,
        [t1],
      )
    ).rows;
    foreignProduct = (
      await db.pool.query<{ id: number }>(
        `select min(id_produto) as id from produtos p join empresas e on e.id_empresa = p.id_empresa
          where coalesce(e.id_matriz, e.id_empresa) = $1`,
        [t2],
      )
    ).rows[0]?.id as number;

    const app = testApp(db.pool);
    const login = async (user: Parameters<typeof logInAs>[2]) => signedIn(app, db.pool, user);
    as = {
      rep: await login({
        login: 'rep@politicas.test',
        role: 'representative',
        idEmpresa: t1,
        codVendedor: repA.codVendedor,
      }),
      supervisor: await login({
        login: 'sup@politicas.test',
        role: 'supervisor',
        idEmpresa: t1,
        codSupervisor: repA.codSupervisor,
      }),
      manager: await login({ login: 'ger@politicas.test', role: 'manager', idEmpresa: t1 }),
      admin: await login({ login: 'adm@politicas.test', role: 'admin', idEmpresa: t1 }),
      manager2: await login({ login: 'ger2@politicas.test', role: 'manager', idEmpresa: t2 }),
    };
  });

  const create = async (api: Api, body: Record<string, unknown>) => {
    const res = await api('POST', '/politicas/regras', body);
    if (res.status !== 201) throw new Error(`POST answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as PolicyRuleCreated;
  };
  const countByDescricao = async (descricao: string) =>
    Number(
      (await db.pool.query('select count(*) as n from app.regras_desconto where descricao = $1', [descricao])).rows[0]
        ?.n,
    );
  const errorPaths = async (res: Response) => ((await res.json()) as Problem).errors?.map((e) => e.path) ?? [];

  describe('rule CRUD', () => {
    it('creates one rule per pauta of idPautas, in one go', async () => {
      const got = await create(as.manager, ruleBody({ descricao: 'Três pautas', idPautas: pautas, promocao: true }));
      expect(got.items.map((r) => r.idPauta).sort()).toEqual([...pautas].sort());
      const { rows } = await db.pool.query(
        `select id_empresa, id_pauta, percent, promocao, criado_por from app.regras_desconto
          where descricao = 'Três pautas' order by id_pauta`,
      );
      expect(rows).toEqual(
        [...pautas]
          .sort((a, b) => a - b)
          .map((p) => ({
            id_empresa: t1,
            id_pauta: p,
            percent: 7.5,
            promocao: true,
            criado_por: 'ger@politicas.test',
          })),
      );
    });

    it('creates none when one pauta of the list does not exist in the tenant', async () => {
      const missing = (await db.pool.query<{ id: number }>('select max(id_pauta) + 100 as id from pautas', [])).rows[0]
        ?.id as number;
      const res = await as.manager(
        'POST',
        '/politicas/regras',
        ruleBody({ descricao: 'Pauta inválida', idPautas: [pautas[0], missing, pautas[2]] }),
      );
      expect(res.status).toBe(400);
      expect(await errorPaths(res)).toEqual(['body.idPautas.1']);
      expect(await countByDescricao('Pauta inválida')).toBe(0);
    });

    it('creates one rule for every list when idPautas is empty or absent', async () => {
      for (const [descricao, extra] of [
        ['Sem pauta', {}],
        ['Lista vazia', { idPautas: [] }],
      ] as const) {
        const got = await create(as.manager, ruleBody({ descricao, ...extra }));
        expect(got.items.map((r) => r.idPauta)).toEqual([null]);
      }
    });

    it('refuses bad dates, percentages and references, naming the field', async () => {
      const group = products[0] as Product;
      const other = products[1] as Product;
      const cases: [Record<string, unknown>, string][] = [
        [{ vigenciaInicio: addDays(today, 5), vigenciaFim: addDays(today, 4) }, 'body.vigenciaFim'],
        [{ vigenciaFim: '2025-02-30' }, 'body.vigenciaFim'],
        [{ percent: 0 }, 'body.percent'],
        [{ percent: 100.01 }, 'body.percent'],
        [{ percent: 12.345 }, 'body.percent'],
        [{ grupo: 987_654 }, 'body.grupo'],
        [{ grupo: group.grupo, subgrupo: 987_654 }, 'body.subgrupo'],
        [{ subgrupo: group.subgrupo }, 'body.subgrupo'],
        [{ grupo: other.grupo === group.grupo ? 987_654 : other.grupo, subgrupo: 987_655 }, 'body.subgrupo'],
        [{ representante: 987_654 }, 'body.representante'],
        [{ descricao: ' \n\t ' }, 'body.descricao'],
      ];
      for (const [over, path] of cases) {
        const res = await as.manager('POST', '/politicas/regras', ruleBody({ descricao: 'Inválida', ...over }));
        expect({ over, status: res.status }).toEqual({ over, status: 400 });
        expect(await errorPaths(res)).toContain(path);
      }
      expect(await countByDescricao('Inválida')).toBe(0);
    });

    it("refuses the other verb's pauta field instead of widening the rule to every list", async () => {
      const post = await as.manager(
        'POST',
        '/politicas/regras',
        ruleBody({ descricao: 'Chave errada', idPauta: pautas[0] }),
      );
      expect(post.status).toBe(400);
      expect(JSON.stringify(((await post.json()) as Problem).errors)).toContain('idPauta');
      expect(await countByDescricao('Chave errada')).toBe(0);
      const [rule] = (await create(as.manager, ruleBody({ descricao: 'Chave certa', idPautas: [pautas[0]] }))).items;
      const put = await as.manager('PUT', `/politicas/regras/${rule?.id}`, ruleBody({ idPautas: [pautas[1]] }));
      expect(put.status).toBe(400);
      expect(JSON.stringify(((await put.json()) as Problem).errors)).toContain('idPautas');
      const { rows } = await db.pool.query('select id_pauta from app.regras_desconto where id = $1', [rule?.id]);
      expect(rows).toEqual([{ id_pauta: pautas[0] }]);
    });

    it('accepts 100% and two decimals', async () => {
      // In the past, so that they raise no ceiling the later tests look at.
      const past = { vigenciaInicio: '2020-01-01', vigenciaFim: '2020-01-31' };
      const got = await create(as.manager, ruleBody({ descricao: 'Cem por cento', percent: 100, ...past }));
      expect(got.items[0]?.percent).toBe(100);
      const two = await create(as.manager, ruleBody({ descricao: 'Duas casas', percent: 12.35, ...past }));
      expect(two.items[0]?.percent).toBe(12.35);
    });

    it('reads, replaces and deletes a rule', async () => {
      const [rule] = (await create(as.manager, ruleBody({ descricao: 'Para editar', idPautas: [pautas[0]] }))).items;
      if (!rule) throw new Error('no rule');
      const got = await as.manager('GET', `/politicas/regras/${rule.id}`);
      expect(got.status).toBe(200);
      expect(await got.json()).toEqual(rule);

      const group = products[0] as Product;
      const put = await as.manager(
        'PUT',
        `/politicas/regras/${rule.id}`,
        ruleBody({
          descricao: 'Editada',
          grupo: group.grupo,
          subgrupo: group.subgrupo,
          representante: repA.codVendedor,
          idPauta: pautas[1],
          percent: 9,
        }),
      );
      expect(put.status).toBe(200);
      const { rows } = await db.pool.query(
        'select descricao, grupo, subgrupo, representante, id_pauta, percent from app.regras_desconto where id = $1',
        [rule.id],
      );
      expect(rows[0]).toEqual({
        descricao: 'Editada',
        grupo: group.grupo,
        subgrupo: group.subgrupo,
        representante: repA.codVendedor,
        id_pauta: pautas[1],
        percent: 9,
      });
      expect(((await put.json()) as PolicyRuleUpdated).item).toMatchObject({
        descricao: 'Editada',
        idPauta: pautas[1],
      });

      const bad = await as.manager('PUT', `/politicas/regras/${rule.id}`, ruleBody({ idPauta: 987_654 }));
      expect(bad.status).toBe(400);
      expect(await errorPaths(bad)).toEqual(['body.idPauta']);

      expect((await as.manager('DELETE', `/politicas/regras/${rule.id}`)).status).toBe(204);
      expect((await as.manager('GET', `/politicas/regras/${rule.id}`)).status).toBe(404);
      expect((await as.manager('DELETE', `/politicas/regras/${rule.id}`)).status).toBe(404);
    });

    it('lets only managers manage rules', async () => {
      const [rule] = (await create(as.manager, ruleBody({ descricao: 'Só gerente' }))).items;
      if (!rule) throw new Error('no rule');
      for (const api of [as.rep, as.supervisor, as.admin]) {
        const calls: [string, string, unknown?][] = [
          ['GET', '/politicas/regras'],
          ['POST', '/politicas/regras', ruleBody({ descricao: 'Não gerente' })],
          ['GET', `/politicas/regras/${rule.id}`],
          ['PUT', `/politicas/regras/${rule.id}`, ruleBody({ descricao: 'Não gerente' })],
          ['DELETE', `/politicas/regras/${rule.id}`],
        ];
        for (const [method, path, body] of calls) {
          const res = await api(method, path, body);
          expect({ method, path, status: res.status }).toEqual({ method, path, status: 403 });
          expect(((await res.json()) as Problem).code).toBe('FORBIDDEN');
        }
      }
      expect(await countByDescricao('Não gerente')).toBe(0);
      expect(await countByDescricao('Só gerente')).toBe(1);
    });

    it("answers 404 to another tenant's manager and leaves the rule alone", async () => {
      const [rule] = (await create(as.manager, ruleBody({ descricao: 'Da empresa 1' }))).items;
      if (!rule) throw new Error('no rule');
      expect((await as.manager2('GET', `/politicas/regras/${rule.id}`)).status).toBe(404);
      expect(
        (await as.manager2('PUT', `/politicas/regras/${rule.id}`, ruleBody({ descricao: 'Invasão' }))).status,
      ).toBe(404);
      expect((await as.manager2('DELETE', `/politicas/regras/${rule.id}`)).status).toBe(404);
      const list = (await (await as.manager2('GET', '/politicas/regras?pageSize=100')).json()) as PolicyRulePage;
      expect(list.items.map((r) => r.id)).not.toContain(rule.id);
      const { rows } = await db.pool.query('select descricao from app.regras_desconto where id = $1', [rule.id]);
      expect(rows).toEqual([{ descricao: 'Da empresa 1' }]);
    });

    it('keeps a description exactly as typed (Campo-only text), stored LATIN1-safe, never a 500', async () => {
      const typed = 'Promoção — “Verão” ☀️ €';
      const res = await as.manager('POST', '/politicas/regras', ruleBody({ descricao: typed }));
      expect(res.status).toBe(201);
      const [rule] = ((await res.json()) as PolicyRuleCreated).items;
      expect(rule?.descricao).toBe(typed);
      // The column holds LATIN1 only: the lossless form (shared/src/text.ts).
      const { rows } = await db.pool.query('select descricao from app.regras_desconto where id = $1', [rule?.id]);
      expect(isLatin1(rows[0]?.descricao ?? '')).toBe(true);
      expect(rows[0]?.descricao).not.toBe(typed);
      const put = await as.manager('PUT', `/politicas/regras/${rule?.id}`, ruleBody({ descricao: `${typed} 🚚` }));
      expect(put.status).toBe(200);
      expect(((await put.json()) as PolicyRuleUpdated).item.descricao).toBe(`${typed} 🚚`);
      // The same text on the devices (collection regras) and in the catalog's conditions.
      const pulled = (await (await as.rep('GET', '/sync/regras/pull?limit=1000')).json()) as SyncPull;
      expect(pulled.documents.find((d) => d.id === String(rule?.id))).toMatchObject({ descricao: `${typed} 🚚` });
    });
  });

  describe('list', () => {
    it('filters by situation, pauta, group and representative as the table says, page by page', async () => {
      const group = products[2] as Product;
      const base = { grupo: group.grupo, descricao: 'Lista' };
      await create(as.manager, ruleBody({ ...base, idPautas: [pautas[0], pautas[1]] }));
      await create(
        as.manager,
        ruleBody({ ...base, vigenciaInicio: addDays(today, -30), vigenciaFim: addDays(today, -1) }),
      );
      await create(
        as.manager,
        ruleBody({ ...base, vigenciaInicio: addDays(today, 1), vigenciaFim: addDays(today, 30) }),
      );
      await create(as.manager, ruleBody({ ...base, representante: repB.codVendedor, idPautas: [pautas[0]] }));

      const expected = async (where: string, params: unknown[]) =>
        (
          await db.pool.query<{ id: number }>(
            `select id from app.regras_desconto where id_empresa = $1 and ${where} order by vigencia_inicio desc, id desc`,
            [t1, ...params],
          )
        ).rows.map((r) => r.id);
      const cases: [string, string, unknown[]][] = [
        ['situacao=todas', 'true', []],
        ['situacao=vigentes', 'vigencia_inicio <= $2 and (vigencia_fim is null or vigencia_fim >= $2)', [today]],
        ['situacao=expiradas', 'vigencia_fim < $2', [today]],
        ['situacao=futuras', 'vigencia_inicio > $2', [today]],
        [`grupo=${group.grupo}`, 'grupo = $2', [group.grupo]],
        [`idPauta=${pautas[0]}&grupo=${group.grupo}`, 'id_pauta = $2 and grupo = $3', [pautas[0], group.grupo]],
        [`representante=${repB.codVendedor}`, 'representante = $2', [repB.codVendedor]],
        [
          `situacao=vigentes&grupo=${group.grupo}`,
          'grupo = $3 and vigencia_inicio <= $2 and (vigencia_fim is null or vigencia_fim >= $2)',
          [today, group.grupo],
        ],
      ];
      for (const [query, where, params] of cases) {
        const want = await expected(where, params);
        const res = await as.manager('GET', `/politicas/regras?${query}&pageSize=100`);
        expect(res.status).toBe(200);
        const page = (await res.json()) as PolicyRulePage;
        expect({ query, ids: page.items.map((r) => r.id), total: page.total }).toEqual({
          query,
          ids: want,
          total: want.length,
        });
      }

      const all = await expected('true', []);
      const p2 = (await (await as.manager('GET', '/politicas/regras?page=2&pageSize=3')).json()) as PolicyRulePage;
      expect(p2).toMatchObject({ page: 2, pageSize: 3, total: all.length });
      expect(p2.items.map((r) => r.id)).toEqual(all.slice(3, 6));
      const past = (await (await as.manager('GET', '/politicas/regras?page=1000')).json()) as PolicyRulePage;
      expect(past).toMatchObject({ items: [], total: all.length });
      const situations = (await (await as.manager('GET', '/politicas/regras?pageSize=100')).json()) as PolicyRulePage;
      for (const r of situations.items) {
        const want =
          r.vigenciaInicio > today
            ? 'futura'
            : r.vigenciaFim !== null && r.vigenciaFim < today
              ? 'expirada'
              : 'vigente';
        expect(r.situacao).toBe(want);
      }
    });

    it('refuses pages out of bounds', async () => {
      for (const q of ['page=0', 'pageSize=0', 'pageSize=101', 'page=abc', 'situacao=hoje', 'grupo=-1']) {
        const res = await as.manager('GET', `/politicas/regras?${q}`);
        expect({ q, status: res.status }).toEqual({ q, status: 400 });
      }
    });
  });

  describe('overlaps', () => {
    it('reports the existing rules whose scope and dates overlap each new one', async () => {
      const g = products[3] as Product;
      const other = products.find((p) => p.grupo !== g.grupo) as Product;
      const start = addDays(today, 100);
      const [base] = (
        await create(
          as.manager,
          ruleBody({ descricao: 'Base', grupo: g.grupo, vigenciaInicio: start, vigenciaFim: addDays(start, 30) }),
        )
      ).items;
      const got = await create(
        as.manager,
        ruleBody({
          descricao: 'Sobreposta',
          grupo: g.grupo,
          subgrupo: g.subgrupo,
          idPautas: [pautas[0], pautas[1]],
          vigenciaInicio: addDays(start, 20),
          vigenciaFim: addDays(start, 60),
        }),
      );
      // Independently: every rule of the tenant, compared column by column.
      const { rows } = await db.pool.query(
        `select id, grupo, subgrupo, representante, id_pauta,
                to_char(vigencia_inicio, 'YYYY-MM-DD') as ini, to_char(vigencia_fim, 'YYYY-MM-DD') as fim
           from app.regras_desconto where id_empresa = $1`,
        [t1],
      );
      const same = (a: number | null, b: number | null) => a === null || b === null || a === b;
      for (const created of got.items) {
        const want = rows
          .filter(
            (r) =>
              !got.items.some((c) => c.id === r.id) &&
              same(r.grupo, created.grupo) &&
              same(r.subgrupo, created.subgrupo) &&
              same(r.representante, created.representante) &&
              same(r.id_pauta, created.idPauta) &&
              r.ini <= (created.vigenciaFim as string) &&
              (r.fim === null || r.fim >= created.vigenciaInicio),
          )
          .map((r) => r.id)
          .sort((a, b) => a - b);
        const reported = got.overlaps.find((o) => o.ruleId === created.id)?.overlapping.map((r) => r.id) ?? [];
        expect(reported).toEqual(want);
        expect(reported).toContain(base?.id);
      }

      const apart = await create(
        as.manager,
        ruleBody({
          descricao: 'Outro grupo',
          grupo: other.grupo,
          vigenciaInicio: start,
          vigenciaFim: addDays(start, 30),
        }),
      );
      expect(apart.overlaps.flatMap((o) => o.overlapping.map((r) => r.id))).not.toContain(base?.id);
      const later = await create(
        as.manager,
        ruleBody({
          descricao: 'Depois',
          grupo: g.grupo,
          vigenciaInicio: addDays(start, 31),
          vigenciaFim: addDays(start, 40),
        }),
      );
      expect(later.overlaps.flatMap((o) => o.overlapping.map((r) => r.id))).not.toContain(base?.id);
    });
  });

  describe('rules in force', () => {
    it('shows a representative only the rules that reach them today; the manager sees all of the tenant', async () => {
      const mk = async (descricao: string, over: Record<string, unknown>) =>
        (await create(as.manager, ruleBody({ descricao, ...over }))).items[0] as PolicyRule;
      const general = await mk('Vigente geral', { promocao: true });
      const mine = await mk('Vigente do representante', { representante: repA.codVendedor });
      const theirs = await mk('Vigente de outro', { representante: repB.codVendedor, promocao: true });
      const expired = await mk('Expirada', { vigenciaInicio: addDays(today, -20), vigenciaFim: addDays(today, -1) });
      const future = await mk('Futura', { vigenciaInicio: addDays(today, 1), vigenciaFim: addDays(today, 20) });
      const endsToday = await mk('Termina hoje', { vigenciaInicio: today, vigenciaFim: today });
      const foreign = (await create(as.manager2, ruleBody({ descricao: 'Outra empresa' }))).items[0] as PolicyRule;

      const inForce = async (api: Api, path = '/politicas/regras/vigentes') => {
        const res = await api('GET', path);
        expect(res.status).toBe(200);
        const body = (await res.json()) as RulesInForce;
        expect(body.date).toBe(today);
        return body.items.map((r) => r.id);
      };
      // Independently: the tenant's rules in force today, seen by everyone or by repA.
      const expectedIds = async (idEmpresa: number, rep: number | null, promocao: boolean) =>
        (
          await db.pool.query<{ id: number }>(
            `select id from app.regras_desconto
              where id_empresa = $1 and vigencia_inicio <= $2 and (vigencia_fim is null or vigencia_fim >= $2)
                and ($3::int is null or representante is null or representante = $3)
                and (not $4 or promocao) order by id`,
            [idEmpresa, today, rep, promocao],
          )
        ).rows.map((r) => r.id);

      const rep = await inForce(as.rep);
      expect(rep).toEqual(await expectedIds(t1, repA.codVendedor, false));
      expect(rep).toEqual(expect.arrayContaining([general.id, mine.id, endsToday.id]));
      for (const id of [theirs.id, expired.id, future.id, foreign.id]) expect(rep).not.toContain(id);

      const manager = await inForce(as.manager);
      expect(manager).toEqual(await expectedIds(t1, null, false));
      expect(manager).toEqual(expect.arrayContaining([general.id, mine.id, theirs.id]));
      for (const id of [expired.id, future.id, foreign.id]) expect(manager).not.toContain(id);
      expect(await inForce(as.supervisor)).toEqual(manager);
      expect(await inForce(as.admin)).toEqual(manager);
      expect(await inForce(as.manager2)).toEqual(await expectedIds(t2, null, false));

      const repPromos = await inForce(as.rep, '/politicas/promocoes/vigentes');
      expect(repPromos).toEqual(await expectedIds(t1, repA.codVendedor, true));
      expect(repPromos).toContain(general.id);
      expect(repPromos).not.toContain(theirs.id);
      const managerPromos = await inForce(as.manager, '/politicas/promocoes/vigentes');
      expect(managerPromos).toEqual(await expectedIds(t1, null, true));
      expect(managerPromos).toContain(theirs.id);
    });
  });

  describe('product groups', () => {
    it('lists the groups of the tenant with their subgroups, as the ERP has them', async () => {
      const { rows } = await db.pool.query<{ g: number; gd: string; s: number; sd: string }>(
        `select g.cod_grupo as g, g.descricao as gd, s.cod_subgrupo as s, s.descricao as sd
           from grupos_produto g join empresas e on e.id_empresa = g.id_empresa
           left join subgrupos_produto s on s.id_empresa = g.id_empresa and s.cod_grupo = g.cod_grupo
          where coalesce(e.id_matriz, e.id_empresa) = $1 order by g.cod_grupo, s.cod_subgrupo`,
        [t1],
      );
      const want: ProductGroups['items'] = [];
      for (const r of rows) {
        let g = want.find((x) => x.codGrupo === r.g);
        if (!g) {
          g = { codGrupo: r.g, descricao: r.gd, subgrupos: [] };
          want.push(g);
        }
        if (r.s !== null) g.subgrupos.push({ codSubgrupo: r.s, descricao: r.sd });
      }
      for (const api of [as.rep, as.supervisor, as.manager, as.admin]) {
        const res = await api('GET', '/politicas/grupos-produto');
        expect(res.status).toBe(200);
        expect(((await res.json()) as ProductGroups).items).toEqual(want);
      }
      expect(want.length).toBeGreaterThan(0);
    });
  });

  describe('ceiling (alçada)', () => {
    /** The engine's inputs, read straight from the ERP and app tables (not through vw_vendedor_limites). */
    const independentInputs = async (
      idEmpresa: number,
      codVendedor: number,
    ): Promise<{ ceilings: RepresentativeCeilings; rules: DiscountRule[] }> => {
      const tenantOf = 'join empresas e on e.id_empresa = t.id_empresa where coalesce(e.id_matriz, e.id_empresa) = $1';
      const erpDefault = await db.pool.query<{ p: number | null }>(
        `select t.perc_desc_max as p from vendedores t ${tenantOf} and t.cod_vendedor = $2`,
        [idEmpresa, codVendedor],
      );
      const erpCategories = await db.pool.query<{ categoria: string; p: number }>(
        `select t.categoria, t.perc_desc_max as p from vendedores_desc_categoria t ${tenantOf} and t.cod_vendedor = $2`,
        [idEmpresa, codVendedor],
      );
      const campo = await db.pool.query<{ categoria: string | null; p: number }>(
        'select categoria, perc_desc_max as p from app.limites_desconto_representante where id_empresa = $1 and cod_vendedor = $2',
        [idEmpresa, codVendedor],
      );
      const byCategory: Record<string, number> = {};
      for (const r of erpCategories.rows) byCategory[r.categoria] = r.p;
      let defaultPercent = erpDefault.rows[0]?.p ?? null;
      for (const r of campo.rows) {
        if (r.categoria === null) defaultPercent = r.p;
        else byCategory[r.categoria] = r.p;
      }
      const rules = await db.pool.query(
        `select id, descricao, grupo, subgrupo, representante, id_pauta as "idPauta", percent, promocao,
                to_char(vigencia_inicio, 'YYYY-MM-DD') as "vigenciaInicio",
                coalesce(to_char(vigencia_fim, 'YYYY-MM-DD'), '9999-12-31') as "vigenciaFim"
           from app.regras_desconto where id_empresa = $1`,
        [idEmpresa],
      );
      return { ceilings: { defaultPercent, byCategory }, rules: rules.rows as DiscountRule[] };
    };

    const alcada = async (api: Api, params: Record<string, string | number | (string | number)[] | undefined>) => {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(params))
        for (const x of v === undefined ? [] : [v].flat()) q.append(k, String(x));
      return api('GET', `/politicas/alcada?${q}`);
    };

    const expectEngineAgrees = async (preview: CeilingPreview, idEmpresa = t1) => {
      const inputs = await independentInputs(idEmpresa, preview.codVendedor);
      expect(preview.items.length).toBeGreaterThan(0);
      for (const item of preview.items) {
        const p = products.find((x) => x.id === item.idProduto) as Product;
        const want = lineCeiling(
          {
            codVendedor: preview.codVendedor,
            idPauta: preview.idPauta,
            date: preview.data,
            product: { categoria: p.categoria, grupo: p.grupo, subgrupo: p.subgrupo },
          },
          inputs.ceilings,
          inputs.rules,
        );
        expect(item).toMatchObject({
          idProduto: p.id,
          categoria: p.categoria,
          basePercent: want.basePercent,
          baseSource: want.baseSource,
          ceilingPercent: want.ceilingPercent,
          source: want.source,
          prefillPercent: want.prefillPercent,
        });
        expect(item.rule?.id ?? null).toBe(want.rule?.id ?? null);
        expect(item.prefillRule?.id ?? null).toBe(want.prefillRule?.id ?? null);
      }
    };

    it("gives a representative their own ceiling per product, as the engine computes from the ERP's", async () => {
      const res = await alcada(as.rep, { idPauta: pautas[0] as number, idProduto: products.map((p) => p.id) });
      expect(res.status).toBe(200);
      const preview = (await res.json()) as CeilingPreview;
      expect(preview).toMatchObject({ codVendedor: repA.codVendedor, idPauta: pautas[0], data: today });
      expect(preview.items.map((i) => i.idProduto)).toEqual(products.map((p) => p.id));
      await expectEngineAgrees(preview);
    });

    it('names the rule that raises the ceiling', async () => {
      const p = products[4] as Product;
      const [rule] = (
        await create(
          as.manager,
          ruleBody({
            descricao: 'Queima de estoque',
            grupo: p.grupo,
            representante: repA.codVendedor,
            idPautas: [pautas[1]],
            percent: 41.5,
            promocao: true,
          }),
        )
      ).items;
      const res = await alcada(as.rep, {
        idPauta: pautas[1] as number,
        idProduto: [p.id, (products[0] as Product).id],
      });
      const preview = (await res.json()) as CeilingPreview;
      await expectEngineAgrees(preview);
      expect(preview.items[0]).toMatchObject({
        source: 'rule',
        ceilingPercent: 41.5,
        prefillPercent: 41.5,
        rule: { id: rule?.id, descricao: 'Queima de estoque', percent: 41.5, promocao: true },
      });
      // Same product on another pauta: the rule does not reach it.
      const elsewhere = (await (
        await alcada(as.rep, { idPauta: pautas[0] as number, idProduto: p.id })
      ).json()) as CeilingPreview;
      await expectEngineAgrees(elsewhere);
      expect(elsewhere.items[0]?.rule?.id).not.toBe(rule?.id);
    });

    it('falls back to 5% when the ERP sets no ceiling for the representative', async () => {
      await db.pool.query(
        `update vendedores set perc_desc_max = null
          where cod_vendedor = $2 and id_empresa in (select id_empresa from empresas where coalesce(id_matriz, id_empresa) = $1)`,
        [t1, repC.codVendedor],
      );
      await db.pool.query(
        `delete from vendedores_desc_categoria
          where cod_vendedor = $2 and id_empresa in (select id_empresa from empresas where coalesce(id_matriz, id_empresa) = $1)`,
        [t1, repC.codVendedor],
      );
      const res = await alcada(as.manager, {
        idPauta: pautas[0] as number,
        idProduto: products.map((p) => p.id),
        codVendedor: repC.codVendedor,
      });
      expect(res.status).toBe(200);
      const preview = (await res.json()) as CeilingPreview;
      await expectEngineAgrees(preview);
      for (const item of preview.items) {
        expect(item).toMatchObject({ baseSource: 'default', basePercent: DEFAULT_CEILING_PERCENT });
      }
    });

    it("uses the representative's ceiling for the product's category, Campo's over the ERP's", async () => {
      const [p, q] = products as [Product, Product];
      const other = products.find((x) => x.categoria !== p.categoria) as Product;
      await db.pool.query(
        'insert into vendedores_desc_categoria (id_empresa, cod_vendedor, categoria, perc_desc_max) values ($1, $2, $3, 11.5)',
        [t1, repC.codVendedor, p.categoria],
      );
      const ask = async () =>
        (await (
          await alcada(as.manager, {
            idPauta: pautas[2] as number,
            idProduto: [p.id, q.id, other.id],
            codVendedor: repC.codVendedor,
          })
        ).json()) as CeilingPreview;
      const erp = await ask();
      await expectEngineAgrees(erp);
      expect(erp.items[0]).toMatchObject({ baseSource: 'category', basePercent: 11.5 });
      expect(erp.items.find((i) => i.idProduto === other.id)).toMatchObject({ baseSource: 'default' });

      await db.pool.query(
        `insert into app.limites_desconto_representante (id_empresa, cod_vendedor, categoria, perc_desc_max)
         values ($1, $2, $3, 13.25), ($1, $2, null, 6)`,
        [t1, repC.codVendedor, p.categoria],
      );
      const campo = await ask();
      await expectEngineAgrees(campo);
      expect(campo.items[0]).toMatchObject({ baseSource: 'category', basePercent: 13.25 });
      expect(campo.items.find((i) => i.idProduto === other.id)).toMatchObject({
        baseSource: 'representative',
        basePercent: 6,
      });
    });

    it('previews another date for managers, with the rules in force then', async () => {
      const p = products[5] as Product;
      const when = addDays(today, 200);
      const [rule] = (
        await create(
          as.manager,
          ruleBody({
            descricao: 'Natal',
            grupo: p.grupo,
            percent: 55,
            vigenciaInicio: when,
            vigenciaFim: addDays(when, 5),
          }),
        )
      ).items;
      const params = { idPauta: pautas[0] as number, idProduto: p.id, codVendedor: repB.codVendedor };
      const then = (await (await alcada(as.manager, { ...params, data: when })).json()) as CeilingPreview;
      expect(then.data).toBe(when);
      await expectEngineAgrees(then);
      expect(then.items[0]?.rule?.id).toBe(rule?.id);
      const now = (await (await alcada(as.manager, params)).json()) as CeilingPreview;
      expect(now.data).toBe(today);
      await expectEngineAgrees(now);
      expect(now.items[0]?.rule?.id).not.toBe(rule?.id);
    });

    it('loadCeilingInputs gives the order service the same ceilings and the rules that may reach the rep', async () => {
      for (const rep of [repA, repB, repC]) {
        const want = await independentInputs(t1, rep.codVendedor);
        const reaching = want.rules.filter((r) => r.representante === null || r.representante === rep.codVendedor);
        const scope = { idEmpresa: t1, codVendedor: null };
        const all = await withScope(createDb(db.pool), scope, (tx) =>
          loadCeilingInputs(tx, { idEmpresa: t1, codVendedor: rep.codVendedor }),
        );
        expect(all.ceilings).toEqual(want.ceilings);
        expect(all.rules.map((r) => r.id).sort((a, b) => a - b)).toEqual(
          reaching.map((r) => r.id).sort((a, b) => a - b),
        );
        const onDay = await withScope(createDb(db.pool), scope, (tx) =>
          loadCeilingInputs(tx, { idEmpresa: t1, codVendedor: rep.codVendedor, date: today }),
        );
        expect(onDay.rules.map((r) => r.id).sort((a, b) => a - b)).toEqual(
          reaching
            .filter((r) => r.vigenciaInicio <= today && today <= r.vigenciaFim)
            .map((r) => r.id)
            .sort((a, b) => a - b),
        );
        expect(all.rules.filter((r) => onDay.rules.some((d) => d.id === r.id))).toEqual(onDay.rules);
      }
    });

    it('lets a supervisor preview their own team only', async () => {
      const base = { idPauta: pautas[0] as number, idProduto: (products[0] as Product).id };
      const own = await alcada(as.supervisor, { ...base, codVendedor: repA.codVendedor });
      expect(own.status).toBe(200);
      await expectEngineAgrees((await own.json()) as CeilingPreview);
      expect((await alcada(as.supervisor, { ...base, codVendedor: repB.codVendedor })).status).toBe(404);
      expect((await alcada(as.supervisor, { ...base, codVendedor: 987_654 })).status).toBe(404);
      expect((await alcada(as.manager, { ...base, codVendedor: 987_654 })).status).toBe(404);
      const none = await alcada(as.manager, base);
      expect(none.status).toBe(400);
      expect(await errorPaths(none)).toEqual(['query.codVendedor']);
    });

    it('refuses a representative who names someone else or a date', async () => {
      const base = { idPauta: pautas[0] as number, idProduto: (products[0] as Product).id };
      const other = await alcada(as.rep, { ...base, codVendedor: repB.codVendedor });
      expect(other.status).toBe(403);
      expect((await alcada(as.rep, { ...base, data: addDays(today, 1) })).status).toBe(403);
      const self = await alcada(as.rep, { ...base, codVendedor: repA.codVendedor });
      expect(self.status).toBe(200);
      expect(((await self.json()) as CeilingPreview).codVendedor).toBe(repA.codVendedor);
    });

    it('answers 404 for a product or pauta the tenant does not have, 400 for a malformed query', async () => {
      const p = (products[0] as Product).id;
      const foreign = await alcada(as.rep, { idPauta: pautas[0] as number, idProduto: [p, foreignProduct] });
      expect(foreign.status).toBe(404);
      expect(((await foreign.json()) as Problem & { idProdutos: number[] }).idProdutos).toEqual([foreignProduct]);
      expect((await alcada(as.rep, { idPauta: 987_654, idProduto: p })).status).toBe(404);
      expect((await alcada(as.manager2, { idPauta: pautas[0] as number, idProduto: p, codVendedor: 1 })).status).toBe(
        404,
      );
      const tooMany = Array.from({ length: 201 }, (_, i) => i + 1);
      for (const params of [
        { idProduto: p },
        { idPauta: pautas[0] as number },
        { idPauta: pautas[0] as number, idProduto: 'x' },
        { idPauta: pautas[0] as number, idProduto: tooMany },
      ]) {
        expect((await alcada(as.rep, params)).status).toBe(400);
      }
    });
  });

  it('documents every policy route in the OpenAPI document', async () => {
    const doc = (await (await testApp(db.pool).request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(
      Object.keys(doc.paths)
        .filter((p) => p.startsWith('/politicas'))
        .sort(),
    ).toEqual([
      '/politicas/alcada',
      '/politicas/grupos-produto',
      '/politicas/promocoes/vigentes',
      '/politicas/regras',
      '/politicas/regras/vigentes',
      '/politicas/regras/{id}',
    ]);
  });
});
