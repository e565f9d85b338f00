// The demo's money rules (docs/credit-and-flex.md), so that a first look at Campo shows them at
// work: every tenant flags orders beyond a client's credit and runs flex (half the margin sold
// above the list goes to the balance; a line may pass its ceiling by 5 points on it), the demo
// representatives' clients have credit limits (every fourth one tight, so an order goes to the
// approver marked), and each demo representative starts with a balance: a manager's adjustment
// in the ledger, as an office would give one. Written through the services, so the phones'
// documents carry them from the first sync.
import { sql } from 'kysely';
import { setCreditLimit } from '../clients/service.ts';
import type { Db } from '../db/kysely.ts';
import { adjustFlex } from '../flex/service.ts';
import type { AuthContext } from '../http/env.ts';

export const DEMO_FLEX_BALANCE = 350;

export async function seedDemoMoney(db: Db): Promise<void> {
  await sql`
    insert into app.config_empresa (id_empresa, politica_credito, flex_percentual_credito, flex_maximo_pontos)
    select distinct id_empresa, 'flag', 50, 5 from app.vw_vendedores
    on conflict (id_empresa) do update
      set politica_credito = excluded.politica_credito,
          flex_percentual_credito = excluded.flex_percentual_credito,
          flex_maximo_pontos = excluded.flex_maximo_pontos`.execute(db);
  const reps = await sql<{ id_empresa: number; cod_vendedor: number }>`
    select id_empresa, cod_vendedor from app.usuarios
     where papel = 'representative' and login like '%@demo.campo' order by id_empresa`.execute(db);
  for (const rep of reps.rows) {
    const office: AuthContext = {
      userId: 0,
      login: 'demonstracao',
      name: 'Demonstração',
      role: 'manager',
      idEmpresa: rep.id_empresa,
      codVendedor: null,
      codSupervisor: null,
    };
    const clients = await sql<{ id_cliente: number; aberto: string | null }>`
      select id_cliente, valor_em_aberto as aberto from app.vw_clientes
       where id_empresa = ${rep.id_empresa} and cod_vendedor = ${rep.cod_vendedor} order by id_cliente`.execute(db);
    for (const [i, c] of clients.rows.entries()) {
      const open = Number(c.aberto ?? 0);
      const room = i % 4 === 3 ? 500 : 20_000;
      await setCreditLimit(db, office, c.id_cliente, Math.ceil((open + room) / 100) * 100);
    }
    await adjustFlex(db, office, rep.cod_vendedor, {
      valor: DEMO_FLEX_BALANCE,
      motivo: 'Saldo inicial da demonstração',
    });
  }
}
