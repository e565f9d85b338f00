-- app.vw_notas_fiscais: the invoices that count, i.e. the ones not cancelled.
--
-- Why: billing (faturamento) is the value of invoiced orders in a period, taken from the
-- ERP's invoices; the fixed part of a commission is a rate times billing. Cancelled
-- invoices (cancelada = 'S') are left out here so that no consumer can count them by
-- mistake.
--
-- erp-reads: public.notas_fiscais(id_nota, id_empresa, num_nota, serie, id_pedido,
--   id_corrent, cod_vendedor, dt_emissao, valor_total, cancelada)
create view app.vw_notas_fiscais as
select n.id_nota,
       e.id_empresa,
       n.id_empresa  as id_filial,
       n.num_nota,
       n.serie,
       n.id_pedido,
       n.id_corrent  as id_cliente,
       n.cod_vendedor,
       n.dt_emissao,
       n.valor_total
  from public.notas_fiscais n
  join app.vw_empresas e on e.id_filial = n.id_empresa
 where n.cancelada = 'N';

comment on view app.vw_notas_fiscais is 'Campo: non-cancelled ERP invoices, the source of billing.';
