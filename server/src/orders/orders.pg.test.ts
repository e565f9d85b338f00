import { createHash, randomUUID } from 'node:crypto';
import type { Order, Problem } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import {
  type Api,
  aPricedClient,
  aRepresentative,
  aRule,
  type PricedProduct,
  signedIn,
} from '../../../test/support/builders.ts';
import {
  blockInErp,
  erpAddressBlank,
  erpOrderCount,
  erpOrderWritten,
  erpPaymentTerms,
  erpRefusesOrderLines,
  invoicedInErp,
  provisionedErp,
} from '../../../test/support/erp.ts';
import { TEST_ENCODING, useTestDatabase } from '../../../test/support/pg.ts';
import { storedDocuments, storedJson } from '../changelog/changelog.ts';
import { portfolioDocuments } from '../clients/portfolio-documents.ts';
import { createDb } from '../db/kysely.ts';

const db = useTestDatabase();

type App = ReturnType<typeof testApp>;
interface Scenario {
  idEmpresa: number;
  codVendedor: number;
  codSupervisor: number;
  idCliente: number;
  idPauta: number;
  products: PricedProduct[];
}

describe('orders', () => {
  let app: App;
  let s: Scenario;
  const as = {} as Record<'rep' | 'rep2' | 'sup' | 'otherSup' | 'manager', Api>;
  /** POST as `who`, with the Idempotency-Key when one is given. */
  const post = (who: Api, path: string, body: unknown, key?: string) =>
    who('POST', path, body, key ? { 'idempotency-key': key } : {});
  const get = (who: Api, path: string) => who('GET', path);

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    app = testApp(db.pool);
    // A known ceiling: 10% default for this rep, no category ceilings, no rules.
    const rep = await aRepresentative(db.pool, erp, { ceiling: 10 });
    s = { ...rep, ...(await aPricedClient(db.pool, rep, { products: 3 })) };
    const otherTeamSup = erp.supervisors.find(
      (x) => x.idEmpresa === s.idEmpresa && x.codSupervisor !== s.codSupervisor,
    );
    const { idEmpresa, codVendedor, codSupervisor } = s;
    as.rep = await signedIn(app, db.pool, { login: 'rep@o.test', role: 'representative', idEmpresa, codVendedor });
    as.rep2 = await signedIn(app, db.pool, { login: 'rep2@o.test', role: 'representative', idEmpresa, codVendedor });
    as.sup = await signedIn(app, db.pool, { login: 'sup@o.test', role: 'supervisor', idEmpresa, codSupervisor });
    as.otherSup = await signedIn(app, db.pool, {
      login: 'sup2@o.test',
      role: 'supervisor',
      idEmpresa,
      codSupervisor: otherTeamSup?.codSupervisor as number,
    });
    as.manager = await signedIn(app, db.pool, { login: 'ger@o.test', role: 'manager', idEmpresa });
  });

  const order = (discounts: number[] = [0, 5]) => ({
    idCliente: s.idCliente,
    observacao: 'Entregar pela manhã — portão “B” 🚚',
    itens: discounts.map((d, i) => ({ idProduto: s.products[i]?.id as number, quantidade: 3, descontoPercent: d })),
  });

  it('creates a pending order with the client data, prices, snapshot, number and history', async () => {
    const res = await post(as.rep, '/orders', order([0, 5]), randomUUID());
    expect(res.status).toBe(201);
    const o = (await res.json()) as Order;
    expect(o.status).toBe('pending_approval');
    const client = (
      await db.pool.query(
        `select coalesce(nullif(btrim(nome_fantasia), ''), razao_social) as nome, cnpj_cpf, end_entrega
           from app.vw_clientes where id_cliente = $1`,
        [s.idCliente],
      )
    ).rows[0];
    expect(o).toMatchObject({
      // The client as people name it: the trade name first (shared clientDisplayName).
      nomeCliente: client.nome,
      cnpjCpfCliente: client.cnpj_cpf,
      endEntrega: client.end_entrega,
      idPauta: s.idPauta,
    });
    // What the ERP's encoding holds (docs/erp-contract.md): only UTF8 keeps the emoji.
    expect(o.observacao).toBe(
      {
        LATIN1: 'Entregar pela manhã - portão "B"',
        WIN1252: 'Entregar pela manhã — portão “B”',
        UTF8: 'Entregar pela manhã — portão “B” 🚚',
      }[TEST_ENCODING],
    );
    const [p1, p2] = s.products as [PricedProduct, PricedProduct];
    expect(o.itens[0]).toMatchObject({
      precoTabela: p1.price,
      precoUnitario: p1.price,
      descontoPercent: 0,
      tetoPercent: 10,
    });
    const unit2 = Math.round(p2.price * 0.95 * 10_000) / 10_000;
    expect(o.itens[1]).toMatchObject({ precoTabela: p2.price, precoUnitario: unit2, descontoPercent: 5 });
    expect(o.valorTotal).toBeCloseTo(Math.round(p1.price * 3 * 100) / 100 + Math.round(unit2 * 3 * 100) / 100, 2);
    expect(o.historico).toEqual([
      expect.objectContaining({ de: null, para: 'pending_approval', usuario: 'rep@o.test' }),
    ]);
    const { rows } = await db.pool.query('select max(num_ped_sar) as n from app.pedidos where id_empresa = $1', [
      s.idEmpresa,
    ]);
    expect(o.numPedSar).toBe(rows[0].n);
  });

  it('answers POST /orders with exactly what GET /orders/{id} reads back (a rule-set line included)', async () => {
    // A rule raises the second product's ceiling, so a line carries a rule in its snapshot.
    const ruleId = await aRule(db.pool, { idEmpresa: s.idEmpresa, descricao: 'Regra da resposta', percent: 20 });
    try {
      const res = await post(as.rep, '/orders', order([2.5, 15]), randomUUID());
      expect(res.status, await res.clone().text()).toBe(201);
      const created = (await res.json()) as Order;
      expect(created.itens[1]?.regra).toEqual({ id: ruleId, descricao: 'Regra da resposta' });
      const read = await get(as.rep, `/orders/${created.id}`);
      expect(read.status).toBe(200);
      // GET adds only what the ERP invoiced: nothing yet, every quantity still open.
      expect(await read.json()).toEqual({
        ...created,
        itens: created.itens.map((l) => ({ ...l, quantidadeFaturada: 0, quantidadeAberta: l.quantidade })),
        invoices: [],
      });
    } finally {
      await db.pool.query('delete from app.regras_desconto where id = $1', [ruleId]);
    }
  });

  it("writes the order's number, drawn with its row, into its stored answer and its devices' document as they were built", async () => {
    const key = randomUUID();
    const res = await post(as.rep, '/orders', order([0, 5]), key);
    expect(res.status).toBe(201);
    const created = (await res.json()) as Order;
    const numbered = await db.pool.query<{ num_ped_sar: number }>('select num_ped_sar from app.pedidos where id = $1', [
      created.id,
    ]);
    expect(created.numPedSar).toBe(numbered.rows[0]?.num_ped_sar);
    // The answer a replay sends: byte for byte the one first sent (text beyond LATIN1 included).
    const stored = await db.pool.query<{ corpo_resposta: Buffer }>(
      'select corpo_resposta from app.chaves_idempotencia where id_pedido = $1',
      [created.id],
    );
    expect(stored.rows[0]?.corpo_resposta.toString('utf8')).toBe(JSON.stringify(created));
    // The devices' document: the order as answered, not invoiced yet, and the hash and text a
    // refresh would write for it, so the refresh that follows writes no revision of it.
    const doc = async () =>
      (
        await db.pool.query<{ hash: string; dados: string; revisao: string }>(
          `select hash, dados, revisao from app.sync_alteracoes
            where id_empresa = $1 and colecao = 'pedidos' and chave = $2`,
          [s.idEmpresa, String(created.id)],
        )
      ).rows[0];
    const logged = await doc();
    const parsed = JSON.parse(logged?.dados ?? 'null') as { order: Order };
    expect(parsed.order).toEqual({
      ...created,
      itens: created.itens.map((l) => ({ ...l, quantidadeFaturada: 0, quantidadeAberta: l.quantidade })),
      invoices: [],
    });
    expect(logged?.dados).toBe(storedJson(parsed));
    expect(logged?.hash).toBe(createHash('md5').update(JSON.stringify(parsed)).digest('hex'));
    expect((await post(as.manager, '/catalog/sync', {})).status).toBe(200);
    expect(await doc()).toEqual(logged);
  });

  it('requires a well-formed Idempotency-Key', async () => {
    for (const key of [undefined, 'short', 'has spaces in it', 'x'.repeat(200)]) {
      const res = await post(as.rep, '/orders', order(), key);
      expect(res.status).toBe(400);
      expect(((await res.json()) as Problem).code).toBe('IDEMPOTENCY_KEY_INVALID');
    }
  });

  it('replays the same key and payload, and refuses the same key with another payload', async () => {
    const key = randomUUID();
    const first = await post(as.rep, '/orders', order(), key);
    const again = await post(as.rep, '/orders', order(), `"${key}"`);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    const other = await post(as.rep, '/orders', order([1, 1]), key);
    expect(other.status).toBe(422);
    expect(((await other.json()) as Problem).code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('creates exactly one order from 50 parallel requests with one key', async () => {
    const key = randomUUID();
    const before = (await db.pool.query('select count(*)::int as n from app.pedidos')).rows[0].n;
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(as.rep, '/orders', order(), key)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((st) => st === 201 || st === 409)).toBe(true);
    const ids = new Set(
      await Promise.all(answers.filter((a) => a.status === 201).map(async (a) => ((await a.json()) as Order).id)),
    );
    expect(ids.size).toBe(1);
    expect((await db.pool.query('select count(*)::int as n from app.pedidos')).rows[0].n).toBe(before + 1);
  });

  it('keeps keys per user: the same key from another user creates another order', async () => {
    const key = randomUUID();
    const a = (await (await post(as.rep, '/orders', order(), key)).json()) as Order;
    const b = (await (await post(as.rep2, '/orders', order(), key)).json()) as Order;
    expect(a.id).not.toBe(b.id);
  });

  it('accepts a discount exactly at the ceiling and refuses one above, naming line, discount, ceiling and rule', async () => {
    expect((await post(as.rep, '/orders', order([10, 0]), randomUUID())).status).toBe(201);
    const res = await post(as.rep, '/orders', order([0, 10.01]), randomUUID());
    expect(res.status).toBe(422);
    const body = (await res.json()) as Problem & {
      reasons: { code: string; line: number; descontoPercent: number; tetoPercent: number }[];
    };
    expect(body.code).toBe('ORDER_REFUSED');
    expect(body.reasons).toEqual([
      expect.objectContaining({
        code: 'DISCOUNT_ABOVE_CEILING',
        line: 2,
        descontoPercent: 10.01,
        tetoPercent: 10,
        regra: null,
      }),
    ]);
    expect(body.reasons[0]).toHaveProperty('message', expect.stringMatching(/Linha 2.*10,01%.*10%/));
  });

  it('lets a rule in force raise the ceiling, and names it', async () => {
    const p = s.products[1] as PricedProduct;
    const ruleId = await aRule(db.pool, {
      idEmpresa: s.idEmpresa,
      descricao: 'Semana do cliente',
      grupo: p.grupo,
      idPauta: s.idPauta,
      percent: 15,
      to: 1,
      promocao: true,
    });
    const ok = await post(as.rep, '/orders', order([0, 15]), randomUUID());
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as Order).itens[1]).toMatchObject({
      tetoPercent: 15,
      regra: { id: ruleId, descricao: 'Semana do cliente' },
    });
    const no = await post(as.rep, '/orders', order([0, 15.5]), randomUUID());
    const reason = ((await no.json()) as { reasons: { regra: { id: number } }[] }).reasons[0];
    expect(reason?.regra.id).toBe(ruleId);
    await db.pool.query('delete from app.regras_desconto where id = $1', [ruleId]);
  });

  it('refuses a blocked client and a client of another portfolio', async () => {
    const blocked = await db.pool.query(
      `select id_cliente from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2 and id_cliente <> $3 order by id_cliente limit 1`,
      [s.idEmpresa, s.codVendedor, s.idCliente],
    );
    await blockInErp(db.pool, blocked.rows[0].id_cliente);
    const res = await post(as.rep, '/orders', { ...order(), idCliente: blocked.rows[0].id_cliente }, randomUUID());
    expect(res.status).toBe(422);
    expect(((await res.json()) as { reasons: { code: string }[] }).reasons[0]?.code).toBe('CLIENT_BLOCKED');

    const foreign = await db.pool.query(
      'select id_cliente from app.vw_clientes where id_empresa = $1 and cod_vendedor <> $2 limit 1',
      [s.idEmpresa, s.codVendedor],
    );
    const res2 = await post(as.rep, '/orders', { ...order(), idCliente: foreign.rows[0].id_cliente }, randomUUID());
    expect(((await res2.json()) as { reasons: { code: string }[] }).reasons[0]?.code).toBe('CLIENT_NOT_IN_PORTFOLIO');
  });

  it('refuses identity, prices and status sent in the body', async () => {
    for (const extra of [{ idEmpresa: 2 }, { codVendedor: 99 }, { situa: 2 }, { valorTotal: 1 }]) {
      const res = await post(as.rep, '/orders', { ...order(), ...extra }, randomUUID());
      expect(res.status).toBe(400);
    }
  });

  async function newOrder(): Promise<Order> {
    return (await (await post(as.rep, '/orders', order([2, 3]), randomUUID())).json()) as Order;
  }

  it('approval writes the order into the ERP exactly as approved', async () => {
    const o = await newOrder();
    const res = await post(as.sup, `/orders/${o.id}/approve`, {});
    expect(res.status).toBe(200);
    const approved = (await res.json()) as Order;
    expect(approved).toMatchObject({ status: 'approved', decididoPor: 'sup@o.test', erpSituacao: 'aberto' });
    expect(approved.erpIdPedido).toEqual(expect.any(Number));
    const head = await erpOrderWritten(db.pool, approved.erpIdPedido as number);
    // The number people know the order by is the ERP's own (num_pedido), not its internal key.
    expect(approved.numPedidoErp).toBe(head.numPedido);
    expect(head.numPedido).not.toBe(head.idPedido);
    const read = (await (await get(as.rep, `/orders/${o.id}`)).json()) as Order;
    expect(read.numPedidoErp).toBe(head.numPedido);
    expect(head).toMatchObject({
      idCorrent: o.idCliente,
      codVendedor: o.codVendedor,
      numPedSar: o.numPedSar,
      origem: 'CAMPO',
      situacao: 'A',
      valorTotal: o.valorTotal,
    });
    expect(
      head.items.map((i) => [
        i.seq,
        i.idProduto,
        i.quantidade,
        i.precoTabela,
        i.precoUnitario,
        i.percDesconto,
        i.valorTotal,
      ]),
    ).toEqual(
      o.itens.map((i) => [
        i.seq,
        i.idProduto,
        i.quantidade,
        i.precoTabela,
        i.precoUnitario,
        i.descontoPercent,
        i.valorTotal,
      ]),
    );
    expect(approved.historico.map((h) => h.para)).toEqual(['pending_approval', 'approved']);

    const twice = await post(as.manager, `/orders/${o.id}/approve`, {});
    expect(twice.status).toBe(409);
    const conflict = (await twice.json()) as Problem;
    expect(conflict.code).toBe('ORDER_ALREADY_DECIDED');
    // RFC 9457: `status` is the HTTP status; the order's own is an extension, in pt-BR in the detail.
    expect(conflict.status).toBe(409);
    expect(conflict.orderStatus).toBe('approved');
    expect(conflict.detail).toMatch(/já está aprovado\.$/);
  });

  it("carries the payment term: the client's default unless another is chosen, only allowed ones, and into the ERP on approval", async () => {
    const terms = async (sql: string, params: unknown[]) =>
      (await db.pool.query<{ id: number; descricao: string }>(sql, params)).rows;
    const [standard] = await terms('select id_condicao as id from app.vw_clientes where id_cliente = $1', [
      s.idCliente,
    ]);
    const active = await terms(
      `select id_condicao as id, descricao from app.vw_condicoes_pagamento
        where id_empresa = $1 and ativo order by id_condicao`,
      [s.idEmpresa],
    );
    const byId = (id: number | undefined) => active.find((t) => t.id === id);
    const def = byId(standard?.id);
    const other = active.find((t) => t.id !== standard?.id);
    if (!def || !other) throw new Error('the reference ERP gives the client a default and offers other terms');

    // Without a choice: the client's default, by name.
    const plain = (await (await post(as.rep, '/orders', order([0]), randomUUID())).json()) as Order;
    expect(plain.condicaoPagamento).toEqual({ id: def.id, descricao: def.descricao });
    // Chosen: that one, on the order, in GET and, once approved, in the ERP's order row.
    const res = await post(as.rep, '/orders', { ...order([0]), idCondicao: other.id }, randomUUID());
    expect(res.status).toBe(201);
    const chosen = (await res.json()) as Order;
    expect(chosen.condicaoPagamento).toEqual({ id: other.id, descricao: other.descricao });
    const read = (await (await get(as.rep, `/orders/${chosen.id}`)).json()) as Order;
    expect(read.condicaoPagamento).toEqual(chosen.condicaoPagamento);
    const approved = (await (await post(as.sup, `/orders/${chosen.id}/approve`, {})).json()) as Order;
    expect((await erpOrderWritten(db.pool, approved.erpIdPedido as number)).idCondicao).toBe(other.id);

    const refusedWith = async (body: unknown) => {
      const r = await post(as.rep, '/orders', body, randomUUID());
      expect(r.status).toBe(422);
      return ((await r.json()) as Problem & { reasons: { code: string; message: string }[] }).reasons;
    };
    // An inactive term and an unknown one.
    const [inactive] = await terms(
      'select id_condicao as id, descricao from app.vw_condicoes_pagamento where id_empresa = $1 and not ativo',
      [s.idEmpresa],
    );
    expect(inactive).toBeDefined();
    expect(await refusedWith({ ...order([0]), idCondicao: inactive?.id })).toEqual([
      {
        code: 'PAYMENT_TERM_NOT_ALLOWED',
        message: `A condição de pagamento "${inactive?.descricao}" está inativa no ERP.`,
      },
    ]);
    expect((await refusedWith({ ...order([0]), idCondicao: 999_999 }))[0]?.code).toBe('PAYMENT_TERM_NOT_ALLOWED');
    // A client the credit department restricts: only its terms.
    await erpPaymentTerms(db.pool, s.idCliente, { restrictedTo: [def.id] });
    try {
      const reasons = await refusedWith({ ...order([0]), idCondicao: other.id });
      expect(reasons[0]?.code).toBe('PAYMENT_TERM_NOT_ALLOWED');
      expect(reasons[0]?.message).toMatch(new RegExp(`"${other.descricao}" não está liberada para o cliente`));
      const allowed = await post(as.rep, '/orders', { ...order([0]), idCondicao: def.id }, randomUUID());
      expect(allowed.status).toBe(201);
      // No default and none chosen (a client registered through Campo, an app older than
      // terms): the order carries none, never an invented one, and the ERP applies its own.
      await erpPaymentTerms(db.pool, s.idCliente, { default: null });
      const bare = await post(as.rep, '/orders', order([0]), randomUUID());
      expect(bare.status).toBe(201);
      expect(((await bare.json()) as Order).condicaoPagamento).toBeNull();
    } finally {
      await erpPaymentTerms(db.pool, s.idCliente, { default: def.id, restrictedTo: [] });
    }
  });

  it('names people, not logins: who placed the order in its history and who decided it', async () => {
    const rep = await signedIn(app, db.pool, {
      login: 'ana@o.test',
      name: 'Ana Conceição',
      role: 'representative',
      idEmpresa: s.idEmpresa,
      codVendedor: s.codVendedor,
    });
    const sup = await signedIn(app, db.pool, {
      login: 'sergio@o.test',
      name: 'Sérgio Aprovador ✅',
      role: 'supervisor',
      idEmpresa: s.idEmpresa,
      codSupervisor: s.codSupervisor,
    });
    const created = (await (await post(rep, '/orders', order([0]), randomUUID())).json()) as Order;
    expect(created.historico[0]).toMatchObject({ usuario: 'ana@o.test', nomeUsuario: 'Ana Conceição' });
    const approved = (await (await post(sup, `/orders/${created.id}/approve`, {})).json()) as Order;
    expect(approved).toMatchObject({ decididoPor: 'sergio@o.test', nomeDecididoPor: 'Sérgio Aprovador ✅' });
    expect(approved.historico.map((h) => h.nomeUsuario)).toEqual(['Ana Conceição', 'Sérgio Aprovador ✅']);
    // The ERP's invoicing is by no person.
    await invoicedInErp(db.pool, approved.erpIdPedido as number);
    const invoiced = (await (await get(rep, `/orders/${created.id}`)).json()) as Order;
    expect(invoiced.historico.at(-1)).toMatchObject({ usuario: 'erp', nomeUsuario: null });
  });

  it('rejection needs a reason and records it; a second decision conflicts', async () => {
    const o = await newOrder();
    expect((await post(as.manager, `/orders/${o.id}/reject`, {})).status).toBe(400);
    const res = await post(as.manager, `/orders/${o.id}/reject`, {
      motivo: 'Preço fora da política — margem “zero” 😕 (€ 3)',
    });
    expect(res.status).toBe(200);
    // The reason stays in Campo: it comes back exactly as typed, in the order and its history.
    const rejected = (await res.json()) as Order;
    expect(rejected).toMatchObject({
      status: 'rejected',
      motivoRejeicao: 'Preço fora da política — margem “zero” 😕 (€ 3)',
      erpIdPedido: null,
    });
    expect(rejected.historico.at(-1)?.motivo).toBe('Preço fora da política — margem “zero” 😕 (€ 3)');
    const read = (await (await get(as.rep, `/orders/${o.id}`)).json()) as Order;
    expect(read.motivoRejeicao).toBe('Preço fora da política — margem “zero” 😕 (€ 3)');
    expect((await post(as.sup, `/orders/${o.id}/approve`, {})).status).toBe(409);
  });

  it('a representative cannot decide, nor a supervisor of another team', async () => {
    const o = await newOrder();
    expect((await post(as.rep, `/orders/${o.id}/approve`, {})).status).toBe(403);
    expect((await post(as.otherSup, `/orders/${o.id}/approve`, {})).status).toBe(404);
    expect((await get(as.otherSup, `/orders/${o.id}`)).status).toBe(404);
    expect((await get(as.sup, `/orders/${o.id}`)).status).toBe(200);
  });

  it('a failing ERP insert rolls the approval back', async () => {
    const o = await newOrder();
    const erpBefore = await erpOrderCount(db.pool);
    const undo = await erpRefusesOrderLines(db.pool);
    try {
      const res = await post(as.sup, `/orders/${o.id}/approve`, {});
      expect(res.status).toBe(422);
      expect(((await res.json()) as Problem).code).toBe('ERP_REPLICATION_FAILED');
    } finally {
      await undo();
    }
    const after = (await (await get(as.sup, `/orders/${o.id}`)).json()) as Order;
    expect(after).toMatchObject({ status: 'pending_approval', erpIdPedido: null });
    expect(after.historico).toHaveLength(1);
    expect(await erpOrderCount(db.pool)).toBe(erpBefore);
  });

  it('moves an approved order to invoiced when the ERP invoices it', async () => {
    const o = await newOrder();
    const approved = (await (await post(as.sup, `/orders/${o.id}/approve`, {})).json()) as Order;
    await invoicedInErp(db.pool, approved.erpIdPedido as number);
    const after = (await (await get(as.rep, `/orders/${o.id}`)).json()) as Order;
    expect(after).toMatchObject({ status: 'invoiced', erpSituacao: 'faturado' });
    expect(after.historico.at(-1)).toMatchObject({ de: 'approved', para: 'invoiced', usuario: 'erp' });
  });

  it("moves the client's logged document to the order's date, exactly as a rebuild of it writes it", async () => {
    expect((await post(as.manager, '/catalog/sync', {})).status).toBe(200);
    const where = `where id_empresa = $1 and colecao = 'clientes' and chave = $2`;
    const key = [s.idEmpresa, `${s.idCliente}@${s.codVendedor}`];
    const logged = async () =>
      (
        await db.pool.query<{ hash: string; dados: string }>(
          `select hash, dados from app.sync_alteracoes ${where}`,
          key,
        )
      ).rows[0];
    const rebuilt = async () => {
      const { rows } = await storedDocuments(portfolioDocuments, s.idEmpresa, [s.idCliente]).execute(createDb(db.pool));
      const { hash, dados } = rows[0] as { hash: string; dados: string };
      return { hash, dados };
    };
    const placedAt = async () => {
      const before = Date.now();
      expect((await post(as.rep, '/orders', order([0]), randomUUID())).status).toBe(201);
      const at = Date.parse((JSON.parse((await logged())?.dados ?? '{}') as { lastOrderAt: string }).lastOrderAt);
      expect(at).toBeGreaterThanOrEqual(before - 1000);
    };

    // Logged: only its date and its open orders move, to what the whole document's builder writes.
    await placedAt();
    expect(await logged()).toEqual(await rebuilt());
    // Logged with a later date (an ERP order dated ahead): never moved back, and not built
    // again either (a whole build would write the sources' date, not this one); its open
    // orders move all the same.
    const dated = (dados: string) =>
      dados.replace(/"lastOrderAt" : "[^"]*"/, '"lastOrderAt" : "2099-01-01T00:00:00.000Z"');
    await db.pool.query(
      `update app.sync_alteracoes
          set dados = regexp_replace(dados, '"lastOrderAt" : "[^"]*"', '"lastOrderAt" : "2099-01-01T00:00:00.000Z"')
        ${where}`,
      key,
    );
    const ahead = await logged();
    await placedAt();
    const moved = await logged();
    expect(moved?.dados).not.toEqual(ahead?.dados);
    expect(moved?.dados).toEqual(dated((await rebuilt()).dados));
    const hashed = await db.pool.query(`select hash = md5(dados) as ok from app.sync_alteracoes ${where}`, key);
    expect(hashed.rows[0]?.ok).toBe(true);
    // Not logged yet (new in the portfolio since the last refresh): built whole.
    await db.pool.query(`delete from app.sync_alteracoes ${where}`, key);
    await placedAt();
    expect(await logged()).toEqual(await rebuilt());
  });

  it('never invents a delivery address: a client without one needs a typed address, or the order is refused', async () => {
    const { rows } = await db.pool.query<{ id_cliente: number }>(
      `select id_cliente from app.vw_clientes
        where id_empresa = $1 and cod_vendedor = $2 and status_financeiro <> 'blocked' and id_pauta = $3
          and id_cliente <> $4
        order by id_cliente limit 1`,
      [s.idEmpresa, s.codVendedor, s.idPauta, s.idCliente],
    );
    const idCliente = rows[0]?.id_cliente as number;
    await erpAddressBlank(db.pool, idCliente);
    const client = (await (await get(as.rep, `/clients/${idCliente}`)).json()) as {
      deliveryAddress: string | null;
      address: { uf: string | null; cep: string | null };
    };
    expect(client.deliveryAddress).toBeNull();
    expect(client.address).toMatchObject({ uf: null, cep: null });

    const body = { ...order([0]), idCliente };
    const refused = await post(as.rep, '/orders', body, randomUUID());
    expect(refused.status).toBe(422);
    const problem = (await refused.json()) as Problem & { reasons: { code: string; message: string }[] };
    expect(problem.reasons.map((r) => r.code)).toEqual(['NO_DELIVERY_ADDRESS']);
    expect(problem.detail).toMatch(/não tem endereço no cadastro do ERP; informe o endereço de entrega/);

    const typed = await post(as.rep, '/orders', { ...body, endEntrega: 'Rua das Flores, 12 - Centro' }, randomUUID());
    expect(typed.status).toBe(201);
    const o = (await typed.json()) as Order;
    expect(o.endEntrega).toBe('Rua das Flores, 12 - Centro');
    const approved = (await (await post(as.sup, `/orders/${o.id}/approve`, {})).json()) as Order;
    expect((await erpOrderWritten(db.pool, approved.erpIdPedido as number)).endEntrega).toBe(
      'Rua das Flores, 12 - Centro',
    );
  });

  it('lists with filters and pagination, scoped by role', async () => {
    const mine = await db.pool.query(
      'select count(*)::int as n from app.pedidos where id_empresa = $1 and cod_vendedor = $2',
      [s.idEmpresa, s.codVendedor],
    );
    const res = await get(as.rep, '/orders?pageSize=2');
    const page = (await res.json()) as { items: Order[]; total: number };
    expect(page.total).toBe(mine.rows[0].n);
    expect(page.items).toHaveLength(2);
    const pending = (await (await get(as.rep, '/orders?status=pending_approval&pageSize=100')).json()) as {
      items: Order[];
    };
    expect(pending.items.every((i) => i.status === 'pending_approval')).toBe(true);
    expect((await get(as.rep, '/orders?pageSize=101')).status).toBe(400);
    const other = (await (await get(as.otherSup, '/orders')).json()) as { total: number };
    expect(other.total).toBe(0);
  });
});
