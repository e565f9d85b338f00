-- app.vw_notas_fiscais (odoo profile): the invoices that count: posted customer invoices.
--
-- Why: billing is the value of the invoices issued in a period; the fixed part of a
-- commission is a rate times billing. In Odoo an invoice is an account_move of move_type
-- 'out_invoice'; a draft is not issued yet and a cancelled one ('cancel') does not count.
-- The NF-e number and series are the Brazilian localisation's (x_nf_numero, x_nf_serie). The
-- order is found by name: invoice_origin holds the sale order's name within the company.
-- The salesperson is the invoice's (invoice_user_id), as on the order.
--
-- erp-reads: public.account_move(id, move_type, state, company_id, partner_id,
--   invoice_user_id, invoice_date, date, invoice_origin, amount_total, x_nf_numero, x_nf_serie)
-- erp-reads: public.sale_order(id, name, company_id)
create view app.vw_notas_fiscais as
select m.id                               as id_nota,
       e.id_empresa,
       e.id_filial,
       m.x_nf_numero                      as num_nota,
       coalesce(m.x_nf_serie, '1')        as serie,
       so.id                              as id_pedido,
       m.partner_id                       as id_cliente,
       m.invoice_user_id                  as cod_vendedor,
       coalesce(m.invoice_date, m.date)   as dt_emissao,
       m.amount_total                     as valor_total
  from public.account_move m
  join app.vw_empresas e on e.id_filial = m.company_id
  left join public.sale_order so on so.company_id = m.company_id and so.name = m.invoice_origin
 where m.move_type = 'out_invoice'
   and m.state = 'posted';

comment on view app.vw_notas_fiscais is 'Campo: posted customer invoices (account_move out_invoice), the source of billing.';
