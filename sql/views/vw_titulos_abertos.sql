-- app.vw_titulos_abertos: receivables not yet fully paid.
--
-- Why: the client detail shows what the client owes, and vw_clientes derives
-- the financial status from these rows. A title is open while valor_pago < valor; it is
-- overdue (vencido) once its due date is before today; dias_atraso is 0 when not overdue.
-- "Today" is the database's current_date, i.e. the server's clock, never the device's.
--
-- erp-reads: public.titulos_receber(id_titulo, id_empresa, id_corrent, id_nota,
--   num_documento, dt_emissao, dt_vencimento, valor, valor_pago)
create view app.vw_titulos_abertos as
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
       t.valor - t.valor_pago                       as valor_em_aberto,
       t.dt_vencimento < current_date               as vencido,
       greatest(current_date - t.dt_vencimento, 0)  as dias_atraso
  from public.titulos_receber t
  join app.vw_empresas e on e.id_filial = t.id_empresa
 where t.valor_pago < t.valor;

comment on view app.vw_titulos_abertos is 'Campo: open (not fully paid) receivables, with overdue flag and days overdue.';
