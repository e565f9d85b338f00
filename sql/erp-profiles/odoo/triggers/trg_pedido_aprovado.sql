-- trg_pedido_aprovado on app.pedidos (odoo profile): an approved order enters Odoo as a
-- confirmed sale order.
--
-- Why: the spec's replication rule, as in the reference profile: when situa moves from 1 to 2
-- the order and its lines are written into sale_order and sale_order_line in the same
-- transaction as the approval, and the sale order's id is stored in erp_id_pedido; any failure
-- aborts the approval, so an order is never approved without its ERP copy, nor copied twice.
--
-- Odoo rules this trigger follows:
--   * the salesperson (cod_vendedor) is a user (res_users.id); the order's company is the
--     user's, which must be the tenant or one of its branches; the team is the user's sales
--     team (the lowest crm_team_member row);
--   * the order's name comes from the company's 'sale.order' sequence in ir_sequence (or the
--     shared one, company_id null): prefix (with %(year)s as the year) and number_next padded,
--     and number_next moves on, with the sequence row locked so two approvals never share a
--     name (Odoo's no_gap implementation);
--   * state 'sale' (confirmed) and invoice_status 'to invoice'; date_order is when the client
--     placed the order, in UTC as Odoo keeps datetimes;
--   * origin 'CAMPO' and client_order_ref = Campo's number mark the replica;
--   * a line's name (its description, mandatory in Odoo) is the product's; price_unit is the
--     list price, discount the percent given, price_reduce the unit price after it and
--     price_subtotal the line's total;
--   * every text goes through app.texto_erp, cut to the ERP column's own width.
--
-- erp-reads: public.res_users(id, company_id)
-- erp-reads: public.res_company(id, parent_id)
-- erp-reads: public.crm_team_member(crm_team_id, user_id, active)
-- erp-reads: public.product_product(id, product_tmpl_id)
-- erp-reads: public.product_template(id, name)
-- erp-reads: public.ir_sequence(id, code, company_id, prefix, padding, number_next,
--   number_increment, active) (and updates number_next)
-- erp-writes: public.sale_order(id, name, company_id, partner_id, user_id, team_id,
--   pricelist_id, payment_term_id, date_order, state, invoice_status, amount_untaxed,
--   amount_total, origin, client_order_ref, note, x_endereco_entrega)
-- erp-writes: public.sale_order_line(order_id, sequence, product_id, name, product_uom_qty,
--   price_unit, discount, price_reduce, price_subtotal, company_id)
create or replace function app.fn_pedido_aprovado()
returns trigger
language plpgsql
-- Runs as the owner that provisioned it: the server's role writes the ERP only through
-- this trigger and holds no privilege on the ERP tables itself.
security definer
set search_path = pg_catalog, pg_temp
as $fn$
declare
  v_company    integer;
  v_team       integer;
  v_seq        record;
  v_name       text;
  v_id         integer;
begin
  if new.erp_id_pedido is not null then
    return new;
  end if;

  if not exists (select 1 from app.pedido_itens i where i.id_pedido = new.id) then
    raise exception 'order % (num_ped_sar %) has no items and cannot be approved', new.id, new.num_ped_sar
      using errcode = 'check_violation';
  end if;

  select u.company_id
    into v_company
    from public.res_users u
    join public.res_company c on c.id = u.company_id
   where u.id = new.cod_vendedor
     and coalesce(c.parent_id, c.id) = new.id_empresa;
  if v_company is null then
    raise exception 'order %: representative % is not registered in the ERP for company %',
      new.id, new.cod_vendedor, new.id_empresa
      using errcode = 'foreign_key_violation';
  end if;

  select min(m.crm_team_id) into v_team
    from public.crm_team_member m
   where m.user_id = new.cod_vendedor and m.active;

  select s.id, s.prefix, s.padding, s.number_next, s.number_increment
    into v_seq
    from public.ir_sequence s
   where s.code = 'sale.order' and s.active and (s.company_id = v_company or s.company_id is null)
   order by s.company_id is null, s.id
   limit 1
     for update;
  if v_seq.id is null then
    raise exception 'order %: the ERP has no sale.order sequence for company %', new.id, v_company
      using errcode = 'foreign_key_violation';
  end if;
  v_name := replace(coalesce(v_seq.prefix, ''), '%(year)s', to_char(new.criado_em, 'YYYY'))
            || lpad(v_seq.number_next::text, greatest(v_seq.padding, 0), '0');
  update public.ir_sequence
     set number_next = number_next + greatest(coalesce(number_increment, 1), 1)
   where id = v_seq.id;

  insert into public.sale_order
         (name, company_id, partner_id, user_id, team_id, pricelist_id, payment_term_id, date_order, state,
          invoice_status, amount_untaxed, amount_total, origin, client_order_ref, note, x_endereco_entrega)
  values (v_name, v_company, new.id_cliente, new.cod_vendedor, v_team, new.id_pauta, new.id_condicao,
          new.criado_em at time zone 'UTC', 'sale', 'to invoice', new.valor_total, new.valor_total,
          'CAMPO', new.num_ped_sar::text,
          nullif(app.texto_erp(new.observacao, app.largura_coluna_erp('public.sale_order', 'note')), ''),
          nullif(app.texto_erp(new.end_entrega, app.largura_coluna_erp('public.sale_order', 'x_endereco_entrega')), ''))
  returning id into v_id;

  insert into public.sale_order_line
         (order_id, sequence, product_id, name, product_uom_qty, price_unit, discount, price_reduce,
          price_subtotal, company_id)
  select v_id, i.seq, i.id_produto,
         coalesce(nullif(app.texto_erp(t.name, app.largura_coluna_erp('public.sale_order_line', 'name')), ''),
                  'Produto ' || i.id_produto),
         i.quantidade, i.preco_tabela, i.perc_desconto, i.preco_unitario, i.valor_total, v_company
    from app.pedido_itens i
    left join public.product_product pp on pp.id = i.id_produto
    left join public.product_template t on t.id = pp.product_tmpl_id
   where i.id_pedido = new.id
   order by i.seq;

  new.erp_id_pedido := v_id;
  return new;
end
$fn$;

comment on function app.fn_pedido_aprovado() is
  'Campo: on approval (situa 1 -> 2) writes the order and its lines into sale_order / sale_order_line (odoo profile).';

-- PostgreSQL 12 and 13 have no CREATE OR REPLACE TRIGGER; provisioning runs both in one
-- transaction, so there is no moment without the trigger.
drop trigger if exists trg_pedido_aprovado on app.pedidos;
create trigger trg_pedido_aprovado
  before update of situa on app.pedidos
  for each row
  when (old.situa = 1 and new.situa = 2)
  execute function app.fn_pedido_aprovado();
