// The ERP's invoicing, as the fixture ERPs would do it, for the demo's order history: an
// approved Campo order's replica is invoiced in full, or in part (the first line and half of
// the second, the rest waiting for stock). It writes the ERP's own tables, one implementation
// per ERP profile, never Campo's: Campo sees the invoices only through its views.
import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';

/** Whether provisioning installed the odoo profile (app.perfil_erp): which ERP tables to write. */
export async function isOdooErp(db: Db): Promise<boolean> {
  const profile = await sql<{ perfil: string | null }>`
    select (select perfil from app.perfil_erp) as perfil`.execute(db);
  return profile.rows[0]?.perfil === 'odoo';
}

/** The ERP invoices the replica of Campo order `idPedido`: all of it, or part of it. */
export async function invoiceOrderInErp(db: Db, idPedido: number, part: boolean): Promise<void> {
  if (await isOdooErp(db)) await invoiceOdoo(db, idPedido, part);
  else await invoiceReference(db, idPedido, part);
}

/** The ERP invoices an approved order: all of it, or the first line and half of the second. */
async function invoiceReference(db: Db, idPedido: number, part: boolean): Promise<void> {
  const nota = await sql<{ id_nota: number }>`
    with pedido as (
      select pv.id_pedido, pv.id_empresa, pv.id_corrent, pv.cod_vendedor
        from app.pedidos p join public.pedidos_venda pv on pv.id_pedido = p.erp_id_pedido
       where p.id = ${idPedido}
    ), linhas as (
      select i.id_produto, i.preco_unitario,
             case when not ${part} then i.quantidade
                  when row_number() over (order by i.id_produto) = 1 then i.quantidade
                  when row_number() over (order by i.id_produto) = 2 then ceil(i.quantidade / 2)
             end as quantidade
        from public.pedidos_venda_itens i join pedido using (id_pedido)
    ), numero as (
      select coalesce(max(n.num_nota), 100000) + 1 as num_nota
        from public.notas_fiscais n join pedido using (id_empresa)
    )
    insert into public.notas_fiscais (id_empresa, num_nota, serie, id_pedido, id_corrent, cod_vendedor,
                                      dt_emissao, valor_total)
    select p.id_empresa, numero.num_nota, '1', p.id_pedido, p.id_corrent, p.cod_vendedor, current_date,
           (select round(sum(quantidade * preco_unitario), 2) from linhas where quantidade is not null)
      from pedido p, numero
    returning id_nota`.execute(db);
  const idNota = nota.rows[0]?.id_nota;
  if (idNota === undefined) throw new Error(`demo order ${idPedido} has no ERP replica to invoice`);
  await sql`
    insert into public.notas_fiscais_itens (id_nota, seq, id_produto, quantidade, valor_unitario, valor_total)
    select ${idNota}, row_number() over (order by id_produto), id_produto, quantidade, preco_unitario,
           round(quantidade * preco_unitario, 2)
      from (select i.id_produto, i.preco_unitario,
                   case when not ${part} then i.quantidade
                        when row_number() over (order by i.id_produto) = 1 then i.quantidade
                        when row_number() over (order by i.id_produto) = 2 then ceil(i.quantidade / 2)
                   end as quantidade
              from public.pedidos_venda_itens i
              join public.notas_fiscais n on n.id_pedido = i.id_pedido
             where n.id_nota = ${idNota}) l
     where quantidade is not null`.execute(db);
  if (!part) {
    await sql`
      update public.pedidos_venda set situacao = 'F'
       where id_pedido = (select id_pedido from public.notas_fiscais where id_nota = ${idNota})`.execute(db);
  }
}

/** The same on the odoo profile's ERP: a posted customer invoice naming the sale order. */
async function invoiceOdoo(db: Db, idPedido: number, part: boolean): Promise<void> {
  const move = await sql<{ id: number }>`
    with pedido as (
      select so.id, so.name, so.company_id, so.partner_id, so.user_id
        from app.pedidos p join public.sale_order so on so.id = p.erp_id_pedido
       where p.id = ${idPedido}
    ), linhas as (
      select l.price_reduce,
             case when not ${part} then l.product_uom_qty
                  when row_number() over (order by l.product_id) = 1 then l.product_uom_qty
                  when row_number() over (order by l.product_id) = 2 then ceil(l.product_uom_qty / 2)
             end as quantidade
        from public.sale_order_line l join pedido on pedido.id = l.order_id
    ), numero as (
      select coalesce(max(m.x_nf_numero), 100000) + 1 as num_nota
        from public.account_move m join pedido using (company_id)
       where m.move_type = 'out_invoice'
    )
    insert into public.account_move (name, move_type, state, company_id, partner_id, invoice_user_id, invoice_date,
                                     date, invoice_origin, amount_total, x_nf_numero, x_nf_serie)
    select 'NF/1/' || lpad(numero.num_nota::text, 6, '0'), 'out_invoice', 'posted', p.company_id, p.partner_id,
           p.user_id, current_date, current_date, p.name,
           (select round(sum(quantidade * price_reduce), 2) from linhas where quantidade is not null),
           numero.num_nota, '1'
      from pedido p, numero
    returning id`.execute(db);
  const idMove = move.rows[0]?.id;
  if (idMove === undefined) throw new Error(`demo order ${idPedido} has no ERP replica to invoice`);
  await sql`
    insert into public.account_move_line (move_id, company_id, partner_id, display_type, name, product_id, quantity,
                                          price_unit, price_subtotal, date, credit)
    select m.id, m.company_id, m.partner_id, 'product', l.name, l.product_id, l.quantidade, l.price_reduce,
           round(l.quantidade * l.price_reduce, 2), m.date, round(l.quantidade * l.price_reduce, 2)
      from public.account_move m
      join lateral (
        select x.name, x.product_id, x.price_reduce,
               case when not ${part} then x.product_uom_qty
                    when row_number() over (order by x.product_id) = 1 then x.product_uom_qty
                    when row_number() over (order by x.product_id) = 2 then ceil(x.product_uom_qty / 2)
               end as quantidade
          from public.sale_order_line x
          join public.sale_order so on so.id = x.order_id
         where so.company_id = m.company_id and so.name = m.invoice_origin
      ) l on l.quantidade is not null
     where m.id = ${idMove}
     order by l.product_id`.execute(db);
  if (!part) {
    await sql`
      update public.sale_order set invoice_status = 'invoiced'
       where id = (select p.erp_id_pedido from app.pedidos p where p.id = ${idPedido})`.execute(db);
  }
}
