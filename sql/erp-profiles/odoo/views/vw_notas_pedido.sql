-- app.vw_notas_pedido (odoo profile): every invoice of an order, cancelled ones included and
-- flagged.
--
-- Why: the order's page answers "was it invoiced, which invoice, when?", a cancelled invoice
-- marked. Customer invoices (account_move out_invoice, not drafts) name their sale order in
-- invoice_origin; an order invoiced in parts has several.
--
-- erp-reads: public.account_move(id, move_type, state, company_id, partner_id,
--   invoice_user_id, invoice_date, date, invoice_origin, amount_total, x_nf_numero, x_nf_serie)
-- erp-reads: public.sale_order(id, name, company_id)
create view app.vw_notas_pedido as
select m.id                               as id_nota,
       e.id_empresa,
       e.id_filial,
       m.x_nf_numero                      as num_nota,
       coalesce(m.x_nf_serie, '1')        as serie,
       so.id                              as id_pedido,
       m.partner_id                       as id_cliente,
       m.invoice_user_id                  as cod_vendedor,
       coalesce(m.invoice_date, m.date)   as dt_emissao,
       m.amount_total                     as valor_total,
       m.state = 'cancel'                 as cancelada
  from public.account_move m
  join public.sale_order so on so.company_id = m.company_id and so.name = m.invoice_origin
  join app.vw_empresas e on e.id_filial = m.company_id
 where m.move_type = 'out_invoice'
   and m.state in ('posted', 'cancel');

comment on view app.vw_notas_pedido is 'Campo: all customer invoices of a sale order, cancelled ones flagged.';
