import { randomUUID } from 'node:crypto';
import { ZProblem } from '@campo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../server/src/db/kysely.ts';
import { documentedCodes } from '../server/src/http/openapi.ts';
import { addUser } from '../server/src/users/service.ts';
import { png } from './fixtures/images.ts';
import { MATRIX_CASES } from './matrix/cases.ts';
import { orderBody } from './matrix/orders.ts';
import type { MatrixCaller, MatrixContext, MatrixRequest } from './matrix/types.ts';
import { testApp } from './support/app.ts';
import { aClientOf, aRepresentative, aRule } from './support/builders.ts';
import { clearForOrders, provisionedErp } from './support/erp.ts';
import { fixtureImages } from './support/images.ts';
import { useTestDatabase } from './support/pg.ts';
import { apiAs, logInAs } from './support/session.ts';

const db = useTestDatabase();

/** The representative caller's visits, through the API (test/matrix/types.ts). */
function matrixVisits(
  app: ReturnType<typeof testApp>,
  asRep: () => ReturnType<typeof apiAs>,
  token: string,
  idCliente: number,
): MatrixContext['visits'] {
  const json = async <T>(res: Response): Promise<T> => {
    if (res.status >= 300) throw new Error(`matrix visits: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const reason = async () =>
    (await json<{ items: { id: number }[] }>(await asRep()('GET', '/visit-reasons'))).items[0]?.id ?? 0;
  const at = { latitude: -23.55, longitude: -46.63, precisao: 10 };
  const open = async () => {
    const res = await asRep()('POST', '/visits', {
      id: randomUUID(),
      idCliente,
      em: new Date().toISOString(),
      posicao: at,
    });
    if (res.status === 409) return ((await res.json()) as { visitaAberta: string }).visitaAberta;
    return (await json<{ id: string }>(res)).id;
  };
  const close = async (id: string) => {
    await json(
      await asRep()('POST', `/visits/${id}/checkout`, { em: new Date().toISOString(), idMotivo: await reason() }),
    );
  };
  return {
    open,
    none: async () => {
      const res = await asRep()('POST', '/visits', {
        id: randomUUID(),
        idCliente,
        em: new Date().toISOString(),
        posicao: null,
      });
      const id =
        res.status === 409
          ? ((await res.json()) as { visitaAberta: string }).visitaAberta
          : ((await res.json()) as { id: string }).id;
      await close(id);
    },
    closed: async () => {
      const id = await open();
      const res = await app.request(`/api/v1/visits/${id}/photo`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
        body: png(2, 2),
      });
      if (res.status !== 204) throw new Error(`matrix visit photo: ${res.status}`);
      await close(id);
      return id;
    },
    reason,
    planClient: async () => {
      await db.pool.query('delete from public.corrent_visitas where id_corrent = $1', [idCliente]);
      return idCliente;
    },
  };
}
const PASSWORD = 'matrix-password-1';
const callers: MatrixCaller[] = ['anonymous', 'representative', 'supervisor', 'manager', 'admin', 'otherTenant'];

describe('route matrix: every route × every role, and another tenant', () => {
  let app: ReturnType<typeof testApp>;
  const tokens = new Map<MatrixCaller, string>();
  let ctx: MatrixContext;
  let doc: unknown;
  let images: Awaited<ReturnType<typeof fixtureImages>> | undefined;

  afterAll(() => images?.remove());

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1, t2] = erp.tenants;
    if (!t1 || !t2) throw new Error('the tiny fixture lacks two tenants');
    const rep = await aRepresentative(db.pool, erp, { tenant: t1 });
    const otherRep = await aRepresentative(db.pool, erp, { besides: rep });
    const kdb = createDb(db.pool);
    const users = [
      { caller: 'representative', role: 'representative', idEmpresa: t1, codVendedor: rep.codVendedor },
      { caller: 'supervisor', role: 'supervisor', idEmpresa: t1, codSupervisor: rep.codSupervisor },
      { caller: 'manager', role: 'manager', idEmpresa: t1 },
      { caller: 'admin', role: 'admin', idEmpresa: t1 },
      { caller: 'otherTenant', role: 'admin', idEmpresa: t2 },
    ] as const;
    // The reference ERP's photos, so GET /catalog/{id}/image answers a photo where one is due.
    images = await fixtureImages(db.pool);
    app = testApp(db.pool, { productImages: { dir: images.dir } });
    doc = await (await app.request('/api/v1/openapi.json')).json();
    for (const u of users) {
      const { caller, ...rest } = u;
      tokens.set(
        caller,
        await logInAs(app, db.pool, { ...rest, login: `${caller.toLowerCase()}@matrix.test`, name: caller }),
      );
    }
    const asRep = () => apiAs(app, tokens.get('representative') ?? null);
    const postAsRep = async <T>(path: string, body: unknown): Promise<T> => {
      const res = await asRep()('POST', path, body);
      if (res.status !== 201) throw new Error(`matrix ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const pick = async (sql: string, params: unknown[]) => {
      const { rows } = await db.pool.query(sql, params);
      if (!rows[0]) throw new Error(`no row for ${sql}`);
      return Object.values(rows[0])[0] as number;
    };
    ctx = {
      idEmpresa: t1,
      codVendedor: rep.codVendedor,
      codSupervisor: rep.codSupervisor,
      idCliente: (await aClientOf(db.pool, rep)).idCliente,
      idClienteOutroVendedor: (await aClientOf(db.pool, otherRep)).idCliente,
      idProduto: await pick('select id_produto from app.vw_produtos where id_empresa = $1 order by 1 limit 1', [t1]),
      idPauta: await pick('select id_pauta from app.vw_pautas where id_empresa = $1 order by 1 limit 1', [t1]),
      idProdutoPedido: 0,
      erpOrder: (
        await db.pool.query<{ idCliente: number; erpId: number }>(
          `select pv.id_corrent as "idCliente", pv.id_pedido as "erpId"
             from public.pedidos_venda pv join public.corrent c on c.id_corrent = pv.id_corrent
            where c.id_empresa = $1 and c.cod_vendedor = $2
              and not exists (select 1 from app.pedidos p where p.erp_id_pedido = pv.id_pedido)
            order by pv.id_pedido limit 1`,
          [t1, rep.codVendedor],
        )
      ).rows[0] ?? { idCliente: 0, erpId: 0 },
      newRule: () =>
        aRule(db.pool, {
          idEmpresa: t1,
          descricao: 'Regra da matriz',
          percent: 2,
          from: '2020-01-01',
          to: '2020-01-31',
          promocao: false,
        }),
      newPendingOrder: async () => {
        const res = await asRep()('POST', '/orders', orderBody(ctx), { 'idempotency-key': randomUUID() });
        if (res.status !== 201) throw new Error(`matrix order: ${res.status} ${await res.text()}`);
        return ((await res.json()) as { id: number }).id;
      },
      newTicket: async () => {
        const body = { idPedido: await ctx.newPendingOrder(), assunto: 'Matriz', mensagem: 'Chamado da matriz' };
        return (await postAsRep<{ id: number }>('/chamados', body)).id;
      },
      newOpportunity: async () =>
        (await postAsRep<{ id: string }>('/funil', { id: randomUUID(), nomeProspect: 'Prospect da matriz' })).id,
      newUser: async () =>
        (
          await addUser(kdb, {
            login: `${randomUUID()}@matrix.test`,
            name: 'Usuário da matriz',
            role: 'manager',
            idEmpresa: t1,
            password: PASSWORD,
          })
        ).id,
      visits: undefined as unknown as MatrixContext['visits'],
    };
    ctx.visits = matrixVisits(app, asRep, tokens.get('representative') ?? '', ctx.idCliente);
    ctx.idProdutoPedido = await pick(
      `select p.id_produto from app.vw_produtos p
         join app.vw_precos pr on pr.id_produto = p.id_produto and pr.id_empresa = p.id_empresa
         join app.vw_clientes c on c.id_pauta = pr.id_pauta and c.id_empresa = p.id_empresa
        where c.id_cliente = $1 and p.ativo order by 1 limit 1`,
      [ctx.idCliente],
    );
    // The matrix's client must be able to receive orders.
    await clearForOrders(db.pool, ctx.idCliente);
  });

  it('has a case for every route of the OpenAPI document', async () => {
    const doc = (await (await app.request('/api/v1/openapi.json')).json()) as { paths: Record<string, object> };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const covered = new Set(MATRIX_CASES.map((c) => `${c.method} ${c.route}`));
    expect(documented.filter((r) => !covered.has(r))).toEqual([]);
  });

  it('refuses an unknown field in every JSON body, as the money rules always did (issue #50)', async () => {
    // Each route's accepted body, as a caller it accepts sends it, with one field more: 400 or
    // 422 everywhere, never the 200 the credit limit's PUT answered. The document's side of the
    // rule (additionalProperties false on every request body) is server/src/openapi.test.ts.
    const accepted: string[] = [];
    let checked = 0;
    for (const testCase of MATRIX_CASES) {
      const caller = callers.find((c) => (testCase.expect[c] ?? 500) < 300);
      if (!caller) continue;
      const req = await testCase.request(ctx, caller);
      const extra = { campoDesconhecido: 1 };
      let body: unknown;
      if (Array.isArray(req.body) && req.body.length > 0) body = req.body.map((row) => ({ ...row, ...extra }));
      else if (req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body))
        body = { ...req.body, ...extra };
      else continue;
      const token = tokens.get(caller);
      const res = await app.request(`/api/v1${req.path}`, {
        method: testCase.method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          'content-type': 'application/json',
          ...req.headers,
        },
        body: JSON.stringify(body),
      });
      checked++;
      const text = await res.text();
      if (![400, 422].includes(res.status) || !text.includes('campoDesconhecido')) {
        accepted.push(`${testCase.method} ${testCase.route} (${caller}): ${res.status}`);
      }
    }
    expect(accepted).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  for (const testCase of MATRIX_CASES) {
    it(`${testCase.method} ${testCase.route}`, async () => {
      const got: Partial<Record<MatrixCaller, number>> = {};
      const headers: Partial<Record<MatrixCaller, (string | null)[]>> = {};
      const undocumented: string[] = [];
      for (const caller of callers) {
        const req = await testCase.request(ctx, caller);
        const token = tokens.get(caller);
        const res = await app.request(`/api/v1${req.path}`, {
          method: testCase.method,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...req.headers,
          },
          ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
          ...(req.rawBody !== undefined ? { body: req.rawBody } : {}),
        });
        got[caller] = res.status;
        // Every answer, errors included, is never sniffed nor cached (docs/security.md, "Headers"),
        // but a success the route lets the device keep.
        const cache = res.status === 200 && testCase.cacheOnSuccess ? testCase.cacheOnSuccess : 'no-store';
        headers[caller] = [
          res.headers.get('x-content-type-options'),
          res.headers.get('cache-control') === cache ? 'as due' : res.headers.get('cache-control'),
        ];
        if (res.status >= 400) {
          // Every answer's code is one the document lists for this route and status (and the
          // catalogue's: the problem schema's code is its enum).
          const { code } = ZProblem.parse(await res.json());
          const listed = documentedCodes(doc, testCase.route, testCase.method, res.status);
          if (!listed?.includes(code)) undocumented.push(`${caller}: ${res.status} ${code}`);
        } else await res.body?.cancel();
      }
      expect(undocumented).toEqual([]);
      for (const caller of callers) expect([caller, ...(headers[caller] ?? [])]).toEqual([caller, 'nosniff', 'as due']);
      expect(got).toEqual(testCase.expect);
    });
  }

  // A retry crossing its original, a proxy repeating a request (docs/reliability.md,
  // "Identical requests at once"): every write route answers the same request sent twice at
  // once as it answers it sent twice in a row, as the first caller of the tenant it lets write.
  describe('the same write twice at once answers as twice in a row', () => {
    const writers: MatrixCaller[] = ['representative', 'supervisor', 'manager', 'admin'];
    /** A request's own unique names made again (a login), so each pair starts from nothing. */
    const renewed = (req: MatrixRequest): MatrixRequest => {
      const body = req.body as Record<string, unknown> | undefined;
      if (body && typeof body === 'object' && typeof body.login === 'string') {
        return { ...req, body: { ...body, login: `${randomUUID()}@matrix.test` } };
      }
      return req;
    };
    const send = async (method: string, caller: MatrixCaller, req: MatrixRequest) => {
      const token = tokens.get(caller);
      const res = await app.request(`/api/v1${req.path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...req.headers,
        },
        ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
        ...(req.rawBody !== undefined ? { body: req.rawBody } : {}),
      });
      const text = await res.text();
      const code = res.status >= 400 ? (JSON.parse(text) as { code?: string }).code : undefined;
      return code === undefined ? `${res.status}` : `${res.status} ${code}`;
    };
    for (const testCase of MATRIX_CASES.filter((c) => c.method !== 'GET')) {
      const caller = writers.find((c) => testCase.expect[c] < 300);
      if (caller === undefined) continue;
      it(`${testCase.method} ${testCase.route} as ${caller}`, async () => {
        const inRow = renewed(await testCase.request(ctx, caller));
        const sequential = [await send(testCase.method, caller, inRow), await send(testCase.method, caller, inRow)];
        for (let round = 0; round < 3; round += 1) {
          const req = renewed(await testCase.request(ctx, caller));
          const atOnce = await Promise.all([send(testCase.method, caller, req), send(testCase.method, caller, req)]);
          // The one documented exception: an order's Idempotency-Key in flight answers 409
          // IDEMPOTENCY_KEY_IN_FLIGHT, "retry shortly" (docs/orders.md), and the retry answers
          // the order; a pushed order waits for it instead.
          const inFlight = atOnce.indexOf('409 IDEMPOTENCY_KEY_IN_FLIGHT');
          if (testCase.route === '/orders' && inFlight >= 0) atOnce[inFlight] = await send('POST', caller, req);
          expect(atOnce.sort()).toEqual([...sequential].sort());
        }
      });
    }
  });
});
