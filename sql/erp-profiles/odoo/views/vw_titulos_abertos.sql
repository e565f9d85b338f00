-- app.vw_titulos_abertos (odoo profile): receivables not yet fully paid.
--
-- Why: the client's page shows what the client owes and vw_clientes derives the financial
-- status from these rows. In Odoo a receivable is a journal item (account_move_line) of
-- account_type 'asset_receivable' on a posted entry, one per due date (date_maturity);
-- amount_residual is what is still owed, so the paid part is debit - amount_residual. The
-- invoice (id_nota) is the entry when it is a customer invoice. "Today" is the database's
-- current_date, never the device's.
--
-- erp-reads: public.account_move_line(id, move_id, company_id, partner_id, account_type,
--   name, date, date_maturity, debit, amount_residual)
-- erp-reads: public.account_move(id, move_type, state)
create view app.vw_titulos_abertos as
select l.id                                               as id_titulo,
       e.id_empresa,
       e.id_filial,
       l.partner_id                                       as id_cliente,
       case when m.move_type = 'out_invoice' then m.id end as id_nota,
       l.name                                             as num_documento,
       l.date                                             as dt_emissao,
       coalesce(l.date_maturity, l.date)                  as dt_vencimento,
       l.debit                                            as valor,
       (l.debit - l.amount_residual)::numeric(14, 2)      as valor_pago,
       l.amount_residual                                  as valor_em_aberto,
       coalesce(l.date_maturity, l.date) < current_date   as vencido,
       greatest(current_date - coalesce(l.date_maturity, l.date), 0) as dias_atraso
  from public.account_move_line l
  join public.account_move m on m.id = l.move_id
  join app.vw_empresas e on e.id_filial = l.company_id
 where l.account_type = 'asset_receivable'
   and m.state = 'posted'
   and l.amount_residual > 0;

comment on view app.vw_titulos_abertos is 'Campo: open receivable journal items, with overdue flag and days overdue.';
