// One name with curly quotes, a dash, the euro sign, Portuguese letters and an emoji, through
// Campo into an ERP database of each supported encoding (docs/erp-contract.md, "Encodings"):
// provisioning twice (the second run changes nothing), an order approved into the ERP's order
// tables (what the ERP got: what its encoding holds), a rejection and a user's name (what
// Campo kept: exactly what was typed), and the company document telling the app the encoding.
import { randomUUID } from 'node:crypto';
import { type Company, ERP_ENCODINGS, type Order, type Session } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantServerRole } from '../server/src/provisioning/grant.ts';
import { provision } from '../server/src/provisioning/provision.ts';
import { testApp } from './support/app.ts';
import { type Api, aPricedClient, aRepresentative, signedIn } from './support/builders.ts';
import { provisionedErp } from './support/erp.ts';
import { SERVER_ROLE, useTestDatabase } from './support/pg.ts';

const TYPED = 'Ação “aspas” – 5 € ç ã 😀';
const ERP_GOT = {
  LATIN1: 'Ação "aspas" - 5 EUR ç ã',
  WIN1252: 'Ação “aspas” – 5 € ç ã',
  UTF8: TYPED,
} as const;

describe.each(ERP_ENCODINGS)('an ERP database in %s', (encoding) => {
  const db = useTestDatabase({ encoding });
  let rep: Api;
  let sup: Api;
  let repName: string;
  let erpRep: { idEmpresa: number; codVendedor: number };
  let order: (observacao: string) => Promise<Order>;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const app = testApp(db.pool);
    const r = await aRepresentative(db.pool, erp, { ceiling: 10 });
    erpRep = r;
    const client = await aPricedClient(db.pool, r, { products: 1 });
    repName = `Zé ${TYPED}`;
    rep = await signedIn(app, db.pool, {
      login: 'rep@enc.test',
      role: 'representative',
      idEmpresa: r.idEmpresa,
      codVendedor: r.codVendedor,
      name: repName,
    });
    sup = await signedIn(app, db.pool, {
      login: 'sup@enc.test',
      role: 'supervisor',
      idEmpresa: r.idEmpresa,
      codSupervisor: r.codSupervisor,
    });
    order = async (observacao) => {
      const res = await rep(
        'POST',
        '/orders',
        {
          idCliente: client.idCliente,
          endEntrega: `Rua ${TYPED}`,
          observacao,
          itens: [{ idProduto: client.products[0]?.id as number, quantidade: 2, descontoPercent: 0 }],
        },
        { 'idempotency-key': randomUUID() },
      );
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()) as Order;
    };
  });

  it('provisions a second time without changing anything', async () => {
    const again = await provision(db.pool);
    expect(again).toMatchObject({ upToDate: true, actions: [] });
    await grantServerRole(db.pool, SERVER_ROLE);
  });

  it('writes into the ERP order tables what its encoding holds, on approval', async () => {
    const placed = await order(TYPED);
    expect(placed.observacao).toBe(ERP_GOT[encoding]);
    const res = await sup('POST', `/orders/${placed.id}/approve`, {});
    expect(res.status, await res.clone().text()).toBe(200);
    const approved = (await res.json()) as Order;
    const { rows } = await db.pool.query<{ observacao: string; end_entrega: string }>(
      'select observacao, end_entrega from pedidos_venda where id_pedido = $1',
      [approved.erpIdPedido],
    );
    expect(rows[0]).toEqual({ observacao: ERP_GOT[encoding], end_entrega: `Rua ${ERP_GOT[encoding]}` });
  });

  it('keeps Campo-only text exactly as typed: a rejection and a user name', async () => {
    const placed = await order('a rejeitar');
    const motivo = `Preço ${TYPED}`;
    const res = await sup('POST', `/orders/${placed.id}/reject`, { motivo });
    expect(res.status, await res.clone().text()).toBe(200);
    const seen = (await (await rep('GET', `/orders/${placed.id}`)).json()) as Order;
    expect(seen.motivoRejeicao).toBe(motivo);
    expect(((await (await rep('GET', '/auth/me')).json()) as Session['user']).name).toBe(repName);
    // Stored in the one escaped form every encoding holds (shared/src/text.ts).
    const stored = await db.pool.query<{ motivo: string }>(
      'select motivo_rejeicao as motivo from app.pedidos where id = $1',
      [placed.id],
    );
    expect(stored.rows[0]?.motivo).toBe('Preço Ação ¤201c;aspas¤201d; ¤2013; 5 ¤20ac; ç ã ¤1f600;');
  });

  it('copies an ERP client name into a ticket as the encoding holds it, and finds it by that name', async () => {
    const { rows } = await db.pool.query<{ num: number; id: number }>(
      `select num_pedido as num, id_corrent as id from app.vw_sitpedido
        where id_empresa = $1 and cod_vendedor = $2 order by id_pedido limit 1`,
      [erpRep.idEmpresa, erpRep.codVendedor],
    );
    const erpOrder = rows[0];
    if (!erpOrder) throw new Error('the fixture gave the representative no ERP order');
    // The ticket names the client as every screen does: its trade name first.
    await db.pool.query('update corrent set razao_social = $1, nome_fantasia = $1 where id_corrent = $2', [
      ERP_GOT[encoding],
      erpOrder.id,
    ]);
    const res = await rep('POST', '/chamados', { numPedErp: erpOrder.num, assunto: 'Nota', mensagem: 'Segunda via' });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(((await res.json()) as { nomeCliente: string }).nomeCliente).toBe(ERP_GOT[encoding]);
    const found = await rep('GET', `/chamados?cliente=${encodeURIComponent('“aspas” – 5 €')}`);
    expect(found.status, await found.clone().text()).toBe(200);
    const list = (await found.json()) as { items: { nomeCliente: string }[] };
    expect(list.items.map((t) => t.nomeCliente)).toEqual([ERP_GOT[encoding]]);
  });

  it('tells the app the ERP encoding in the company document', async () => {
    const company = (await (await rep('GET', '/catalog/company')).json()) as Company;
    expect(company.erpEncoding).toBe(encoding);
  });
});
