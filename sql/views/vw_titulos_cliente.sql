-- app.vw_titulos_cliente: a client's receivables that the rep may need to talk about: the
-- open ones and those paid in the last 60 days.
--
-- Why: on a visit the buyer asks about a late boleto or says one is paid; the rep answers
-- from the same rows the financial status is computed from (app.vw_titulos_abertos keeps
-- only the open ones). A paid title leaves the list 60 days after its payment, so that the
-- list stays short. dias_atraso counts the days after the due date while the title is open
-- (0 when paid or not yet due); "today" is the database's current_date, never the device's.
--
-- erp-reads: public.titulos_receber(id_titulo, id_empresa, id_corrent, id_nota,
--   num_documento, dt_emissao, dt_vencimento, valor, valor_pago, dt_pagamento)
create view app.vw_titulos_cliente as
select t.id_titulo,
       e.id_empresa,
       t.id_empresa                                 as id_filial,
       t.id_corrent                                 as id_cliente,
       t.id_nota,
       t.num_documento,
       t.dt_emissao,
       t.dt_vencimento,
       t.valor,
       t.valor_pago,
       t.dt_pagamento,
       t.valor - t.valor_pago                       as valor_em_aberto,
       t.valor_pago >= t.valor                      as pago,
       case when t.valor_pago < t.valor
            then greatest(current_date - t.dt_vencimento, 0) else 0 end as dias_atraso
  from public.titulos_receber t
  join app.vw_empresas e on e.id_filial = t.id_empresa
 where t.valor_pago < t.valor
    or t.dt_pagamento >= current_date - 60;

comment on view app.vw_titulos_cliente is 'Campo: a client''s open receivables and those paid in the last 60 days.';
