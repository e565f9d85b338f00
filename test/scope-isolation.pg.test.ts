// Cross-tenant and cross-representative access, generated from the OpenAPI document so no
// route is missed (OWASP API1/API3/API5; docs/reliability.md). Every operation whose path names
// an object is called by every role with the ids of objects of another scope — another
// representative of the same tenant (for representatives and for a supervisor of another
// team) and another tenant (for everyone) — with a valid body, so only the scope can refuse.
// Each must answer 403 or 404, say nothing of the object, and change nothing. Query filters and
// body references naming another scope's objects return nothing of it or are refused.
import { randomUUID } from 'node:crypto';
import type { Session } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../server/src/db/kysely.ts';
import { addUser } from '../server/src/users/service.ts';
import { png } from './fixtures/images.ts';
import { testApp } from './support/app.ts';
import { orderableClient, provisionedErp } from './support/erp.ts';
import { useTestDatabase } from './support/pg.ts';
import { apiAs } from './support/session.ts';

const db = useTestDatabase();
const PASSWORD = 'escopo-password-1';
type Caller = 'rep' | 'sup' | 'manager' | 'admin';
type Foreign = Record<string, (string | number)[]>;

describe('objects of another scope, for every documented route with an object id', () => {
  let app: ReturnType<typeof testApp>;
  const tokens = {} as Record<Caller | 'repB' | 'repC' | 'managerC' | 'adminC', string>;
  /** Ids by resource: what the callers of tenant 1 may not reach (another tenant's). */
  const otherTenant: Foreign = {};
  /** And what a representative and another team's supervisor may not reach either. */
  const otherRep: Foreign = {};
  const secrets: string[] = [];

  const call = async (who: string, method: string, path: string, body?: unknown) =>
    // An upload's body is the file itself (a visit's photo), not JSON.
    method === 'PUT' && path.endsWith('/photo')
      ? app.request(`/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${who}`, 'content-type': 'image/png' },
          body: png(2, 2),
        })
      : apiAs(app, who)(method, path, body, { 'idempotency-key': randomUUID() });

  const login = async (u: {
    login: string;
    role: string;
    idEmpresa: number;
    codVendedor?: number;
    codSupervisor?: number;
  }) => {
    await addUser(createDb(db.pool), {
      codVendedor: null,
      codSupervisor: null,
      ...u,
      name: u.login,
      password: PASSWORD,
    });
    const res = await app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: u.login, password: PASSWORD }),
    });
    return (await res.json()) as Session;
  };

  /** A reason of the visits' list of the caller's tenant; its id. */
  const reasonOf = async (token: string) =>
    ((await (await call(token, 'GET', '/visit-reasons')).json()) as { items: { id: number }[] }).items[0]?.id as number;

  /** An order, a ticket about it, a funnel card and a visit (with its photo) of a representative; their ids. */
  async function objectsOf(token: string, rep: { idEmpresa: number; codVendedor: number }) {
    const c = await orderableClient(db.pool, rep);
    const order = await call(token, 'POST', '/orders', {
      idCliente: c.idCliente,
      itens: [{ idProduto: c.idProduto, quantidade: 1 }],
    });
    expect(order.status, await order.clone().text()).toBe(201);
    const o = (await order.json()) as { id: number; numPedSar: number; nomeCliente: string };
    const ticket = await call(token, 'POST', '/chamados', {
      idPedido: o.id,
      assunto: 'Segredo do chamado',
      mensagem: 'x',
    });
    expect(ticket.status, await ticket.clone().text()).toBe(201);
    const cardId = randomUUID();
    const card = await call(token, 'POST', '/funil', { id: cardId, nomeProspect: 'Prospect secreto' });
    expect(card.status, await card.clone().text()).toBe(201);
    const visitId = randomUUID();
    const visit = await call(token, 'POST', '/visits', {
      id: visitId,
      idCliente: c.idCliente,
      em: new Date().toISOString(),
      posicao: { latitude: -8.05, longitude: -34.9, precisao: 5 },
    });
    expect(visit.status, await visit.clone().text()).toBe(201);
    const photo = await call(token, 'PUT', `/visits/${visitId}/photo`);
    expect(photo.status, await photo.clone().text()).toBe(204);
    secrets.push(o.nomeCliente);
    return {
      client: c.idCliente,
      order: o.id,
      ticket: ((await ticket.json()) as { id: number }).id,
      card: cardId,
      visit: visitId,
    };
  }

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1, t2] = erp.tenants as [number, number];
    const a = erp.reps.find((r) => r.idEmpresa === t1);
    const b = erp.reps.find((r) => r.idEmpresa === t1 && r.codSupervisor !== a?.codSupervisor);
    const c = erp.reps.find((r) => r.idEmpresa === t2);
    if (!a || !b || !c) throw new Error('the tiny fixture lacks two teams and two tenants');
    app = testApp(db.pool);
    tokens.rep = (
      await login({ login: 'a@escopo.test', role: 'representative', idEmpresa: t1, codVendedor: a.codVendedor })
    ).token;
    tokens.sup = (
      await login({ login: 's@escopo.test', role: 'supervisor', idEmpresa: t1, codSupervisor: a.codSupervisor })
    ).token;
    tokens.manager = (await login({ login: 'm@escopo.test', role: 'manager', idEmpresa: t1 })).token;
    tokens.admin = (await login({ login: 'ad@escopo.test', role: 'admin', idEmpresa: t1 })).token;
    tokens.repB = (
      await login({ login: 'b@escopo.test', role: 'representative', idEmpresa: t1, codVendedor: b.codVendedor })
    ).token;
    tokens.repC = (
      await login({ login: 'c@escopo.test', role: 'representative', idEmpresa: t2, codVendedor: c.codVendedor })
    ).token;
    tokens.managerC = (await login({ login: 'mc@escopo.test', role: 'manager', idEmpresa: t2 })).token;
    const adminC = await login({ login: 'adc@escopo.test', role: 'admin', idEmpresa: t2 });
    tokens.adminC = adminC.token;

    const ofB = await objectsOf(tokens.repB, b);
    const ofC = await objectsOf(tokens.repC, c);
    const rule = await call(tokens.managerC, 'POST', '/politicas/regras', {
      descricao: 'Regra secreta',
      percent: 9,
      vigenciaInicio: '2020-01-01',
      vigenciaFim: '2999-12-31',
    });
    expect(rule.status).toBe(201);
    const product = await db.pool.query('select id_produto from app.vw_produtos where id_empresa = $1 limit 1', [t2]);
    Object.assign(otherTenant, {
      orders: [ofC.order],
      clients: [ofC.client],
      chamados: [ofC.ticket],
      funil: [ofC.card],
      politicas: [((await rule.json()) as { items: { id: number }[] }).items[0]?.id as number],
      usuarios: [adminC.user.id],
      catalog: [product.rows[0].id_produto],
      visits: [ofC.visit],
      'visit-reasons': [await reasonOf(tokens.managerC)],
    });
    Object.assign(otherRep, {
      orders: [ofB.order],
      clients: [ofB.client],
      chamados: [ofB.ticket],
      funil: [ofB.card],
      visits: [ofB.visit],
    });
    secrets.push('Segredo do chamado', 'Prospect secreto', 'Regra secreta');
  });

  /** A valid body for each writing operation, so validation never answers before the scope. */
  const bodyFor = (method: string, path: string): unknown => {
    if (method === 'GET' || method === 'DELETE') return undefined;
    if (path.endsWith('/reject')) return { motivo: 'Motivo qualquer' };
    if (path.endsWith('/mensagens')) return { texto: 'Mensagem' };
    if (path.endsWith('/credit-limit')) return { creditLimit: 10 };
    if (path.endsWith('/ativo')) return { active: false };
    if (path.endsWith('/senha')) return { password: 'outra-senha-longa-1' };
    if (path === '/funil/{id}') return { valor: 1 };
    if (path === '/visits/{id}/checkout') return { em: new Date(Date.now() + 60_000).toISOString(), idMotivo: 1 };
    if (path === '/politicas/regras/{id}')
      return { descricao: 'Mudada', percent: 1, vigenciaInicio: '2020-01-01', vigenciaFim: '2999-12-31' };
    return {};
  };

  const appRows = async () => {
    const { rows } = await db.pool.query<{ n: number }>(
      `select sum(n)::int as n from (
         select count(*) as n from app.pedidos where situa = 1 union all select count(*) from app.chamados where status = 'aberto'
         union all select count(*) from app.chamado_mensagens union all select count(*) from app.oportunidades
         union all select count(*) from app.regras_desconto union all select count(*) from app.usuarios where ativo
         union all select count(*) from app.limites_credito union all select count(*) from app.visitas where saida_em is null
         union all select count(*) from app.visita_fotos union all select count(*) from app.visita_motivos where ativo) t`,
    );
    return rows[0]?.n;
  };

  it('answers 403 or 404 to every object route with an id of another scope, saying nothing and changing nothing', async () => {
    const doc = (await (await app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(doc.paths)
      .filter(([path]) => path.includes('{id}'))
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => ({ method: m.toUpperCase(), path })));
    expect(routes.length).toBeGreaterThan(15);
    const leaks: string[] = [];
    let calls = 0;
    for (const { method, path } of routes) {
      const resource = path.split('/')[1] === 'ger' ? 'chamados' : (path.split('/')[1] as string);
      const tenantIds = otherTenant[resource];
      // A route whose objects this test cannot name fails here: a new route cannot slip by.
      expect(tenantIds, `no foreign ids for ${path}`).toBeDefined();
      const cases: [Caller, (string | number)[]][] = [
        ['rep', [...(tenantIds ?? []), ...(otherRep[resource] ?? [])]],
        // A supervisor sees every client of the tenant and its history, by design (docs/api-clients-catalog.md);
        // another team's orders, tickets and cards are out of their scope.
        ['sup', [...(tenantIds ?? []), ...(resource === 'clients' ? [] : (otherRep[resource] ?? []))]],
        ['manager', tenantIds ?? []],
        ['admin', tenantIds ?? []],
      ];
      for (const [caller, ids] of cases) {
        for (const id of ids) {
          // Products of the catalog are the tenant's to every role; another representative's are the same catalog.
          const before = await appRows();
          const res = await call(
            tokens[caller],
            method,
            path.replace('{id}', String(id)).replace('{erpId}', '1'),
            bodyFor(method, path),
          );
          const text = await res.text();
          calls++;
          if (![403, 404].includes(res.status))
            leaks.push(`${caller} ${method} ${path} (${id}) → ${res.status} ${text.slice(0, 200)}`);
          for (const secret of secrets)
            if (text.includes(secret)) leaks.push(`${caller} ${method} ${path} (${id}) shows "${secret}"`);
          if ((await appRows()) !== before) leaks.push(`${caller} ${method} ${path} (${id}) changed data`);
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(calls).toBeGreaterThan(100);
  });

  it("filters and body references naming another scope's objects give nothing of them", async () => {
    const [bClient] = otherRep.clients as number[];
    const [bOrder] = otherRep.orders as number[];
    const [cClient] = otherTenant.clients as number[];
    const listed = async (who: string, path: string) => {
      const res = await call(who, 'GET', path);
      expect(res.status, path).toBe(200);
      return (await res.json()) as { items: unknown[] };
    };
    expect((await listed(tokens.rep, `/orders?idCliente=${bClient}`)).items).toEqual([]);
    expect((await listed(tokens.manager, `/orders?idCliente=${cClient}`)).items).toEqual([]);
    expect((await listed(tokens.manager, `/ger/chamados?idCliente=${cClient}`)).items).toEqual([]);
    // Another team's representative on a supervisor's dashboard; another tenant's on a manager's.
    expect((await call(tokens.sup, 'GET', '/dashboard/rep?codVendedor=999999')).status).toBe(404);
    const refused = [
      await call(tokens.rep, 'POST', '/orders', { idCliente: bClient, itens: [{ idProduto: 1, quantidade: 1 }] }),
      await call(tokens.rep, 'POST', '/funil', { id: randomUUID(), idCliente: bClient }),
      await call(tokens.rep, 'POST', '/funil', { id: randomUUID(), nomeProspect: 'x', idPedido: bOrder }),
      await call(tokens.rep, 'POST', '/chamados', { idPedido: bOrder, assunto: 'x', mensagem: 'x' }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(422);
      const text = await res.text();
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});
