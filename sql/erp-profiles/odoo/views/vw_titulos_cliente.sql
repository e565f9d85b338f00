-- app.vw_titulos_cliente (odoo profile): a client's receivables that the rep may need to talk
-- about: the open ones and those paid in the last 60 days.
--
-- Why: on a visit the buyer asks about a late boleto or says one is paid. As in
-- app.vw_titulos_abertos, a receivable is a journal item of account_type 'asset_receivable'
-- on a posted entry. Odoo keeps no payment date on it: a fully paid item (reconciled) was
-- paid on the latest date of the payments matched against it (account_partial_reconcile
-- max_date).
--
-- erp-reads: public.account_move_line(id, move_id, company_id, partner_id, account_type,
--   name, date, date_maturity, debit, amount_residual, reconciled)
-- erp-reads: public.account_move(id, move_type, state)
-- erp-reads: public.account_partial_reconcile(debit_move_id, max_date)
create view app.vw_titulos_cliente as
select t.*
  from (
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
               case when l.reconciled or l.amount_residual <= 0 then
                 (select max(r.max_date) from public.account_partial_reconcile r where r.debit_move_id = l.id)
               end                                                as dt_pagamento,
               l.amount_residual                                  as valor_em_aberto,
               l.amount_residual <= 0                             as pago,
               case when l.amount_residual > 0
                    then greatest(current_date - coalesce(l.date_maturity, l.date), 0) else 0 end as dias_atraso
          from public.account_move_line l
          join public.account_move m on m.id = l.move_id
          join app.vw_empresas e on e.id_filial = l.company_id
         where l.account_type = 'asset_receivable'
           and m.state = 'posted'
       ) t
 where not t.pago
    or t.dt_pagamento >= current_date - 60;

comment on view app.vw_titulos_cliente is 'Campo: a client''s open receivables and those paid in the last 60 days.';
