// The demo's order history: a first look at Campo should show what happens after an order is
// sent, not an empty "Pedidos". Each demo representative gets four orders, made through the
// same services a phone and a supervisor use: one approved and invoiced in full, one approved
// and invoiced in part (the rest waiting for stock, as distributors do), one approved that the
// ERP has not invoiced yet, and one waiting for the supervisor. The ERP's part, the invoicing,
// is played by the fixture (erp-fixture/invoicing.ts), in the ERP's own tables of whichever
// profile the demo ERP has; Campo reads the invoices through its views.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import { invoiceOrderInErp } from '../erp-fixture/invoicing.ts';
import type { AuthContext } from '../http/env.ts';
import { createOrder, decideOrder } from '../orders/service.ts';

export interface DemoRep {
  user_id: number;
  login: string;
  nome: string;
  id_empresa: number;
  cod_vendedor: number;
}

type Invoicing = 'full' | 'part' | 'none' | 'pending';
const HISTORY: readonly Invoicing[] = ['full', 'part', 'none', 'pending'];

async function approver(db: Db, rep: DemoRep): Promise<AuthContext> {
  const sup = await sql<{ id: number; login: string; nome: string; cod_supervisor: number }>`
    select u.id, u.login, u.nome, u.cod_supervisor
      from app.usuarios u join app.vw_vendedores v
        on v.id_empresa = u.id_empresa and v.cod_supervisor = u.cod_supervisor
     where u.papel = 'supervisor' and u.id_empresa = ${rep.id_empresa} and v.cod_vendedor = ${rep.cod_vendedor}
     limit 1`.execute(db);
  const s = sup.rows[0];
  if (s) {
    return {
      userId: s.id,
      login: s.login,
      name: s.nome,
      role: 'supervisor',
      idEmpresa: rep.id_empresa,
      codVendedor: null,
      codSupervisor: s.cod_supervisor,
    };
  }
  return demoManager(rep.id_empresa);
}

/** The demo acting as a manager of the tenant, where no demo login is one. */
export function demoManager(idEmpresa: number): AuthContext {
  return {
    userId: 0,
    login: 'demonstracao',
    name: 'Demonstração',
    role: 'manager',
    idEmpresa,
    codVendedor: null,
    codSupervisor: null,
  };
}

/** The demo's representatives (users.ts), each as their phone would call the services. */
export async function demoReps(db: Db): Promise<{ rep: DemoRep; auth: AuthContext }[]> {
  const reps = await sql<DemoRep>`
    select id as user_id, login, nome, id_empresa, cod_vendedor from app.usuarios
     where papel = 'representative' and login like '%@demo.campo' order by id_empresa`.execute(db);
  return reps.rows.map((rep) => ({
    rep,
    auth: {
      userId: rep.user_id,
      login: rep.login,
      name: rep.nome,
      role: 'representative',
      idEmpresa: rep.id_empresa,
      codVendedor: rep.cod_vendedor,
      codSupervisor: null,
    },
  }));
}

export async function seedDemoOrders(db: Db): Promise<void> {
  for (const { rep, auth } of await demoReps(db)) {
    const decider = await approver(db, rep);
    // Clients in good standing with room on their credit (demo/money.ts makes every fourth tight).
    const clients = await sql<{ id_cliente: number; id_pauta: number }>`
      select id_cliente, id_pauta from app.vw_clientes
       where id_empresa = ${rep.id_empresa} and cod_vendedor = ${rep.cod_vendedor}
         and status_financeiro = 'ok' and id_pauta is not null and end_entrega is not null
       order by id_cliente limit ${HISTORY.length}`.execute(db);
    for (const [i, client] of clients.rows.entries()) {
      const products = await sql<{ id_produto: number }>`
        select pr.id_produto from app.vw_precos pr join app.vw_produtos p using (id_empresa, id_produto)
         where pr.id_empresa = ${rep.id_empresa} and pr.id_pauta = ${client.id_pauta} and p.ativo
         order by pr.id_produto offset ${7 * i} limit 3`.execute(db);
      if (products.rows.length === 0) continue;
      const created = await createOrder(db, auth, randomUUID(), {
        idCliente: client.id_cliente,
        observacao: 'Pedido da demonstração',
        itens: products.rows.map((p, n) => ({ idProduto: p.id_produto, quantidade: 4 + 2 * n, descontoPercent: 0 })),
      });
      const invoicing = HISTORY[i];
      if (invoicing === 'pending') continue;
      await decideOrder(db, decider, created.body.id, { approve: true });
      if (invoicing === 'full' || invoicing === 'part')
        await invoiceOrderInErp(db, created.body.id, invoicing === 'part');
    }
  }
}
