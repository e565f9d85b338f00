-- app.vw_notas_pedido: every invoice of an order, cancelled ones included and flagged.
--
-- Why: the order's page answers "was it invoiced, which invoice, when?". An order may be
-- invoiced over several invoices (partial invoicing), and a cancelled invoice must still be
-- shown (marked) so that the rep understands a number the client quotes, while billing
-- (app.vw_notas_fiscais) leaves it out. Read per order (id_pedido) or per client.
--
-- erp-reads: public.notas_fiscais(id_nota, id_empresa, num_nota, serie, id_pedido,
--   id_corrent, cod_vendedor, dt_emissao, valor_total, cancelada)
create view app.vw_notas_pedido as
select n.id_nota,
       e.id_empresa,
       n.id_empresa          as id_filial,
       n.num_nota,
       n.serie,
       n.id_pedido,
       n.id_corrent          as id_cliente,
       n.cod_vendedor,
       n.dt_emissao,
       n.valor_total,
       n.cancelada = 'S'     as cancelada
  from public.notas_fiscais n
  join app.vw_empresas e on e.id_filial = n.id_empresa
 where n.id_pedido is not null;

comment on view app.vw_notas_pedido is 'Campo: all ERP invoices of an order, cancelled ones flagged.';
