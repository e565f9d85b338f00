-- app.vw_sitpedido: the situation of every ERP order (the spec names this view).
--
-- Why: historical ERP orders are consulted through it, and it is where a Campo order
-- becomes invoiced: an approved order's replica (app.pedidos.erp_id_pedido = id_pedido)
-- turns 'F' when the ERP invoices it. situacao: 'A' open, 'F' invoiced, 'C' cancelled;
-- situacao_descricao spells them 'aberto', 'faturado', 'cancelado'. origem is 'CAMPO' for
-- the replicas, whose num_ped_sar is Campo's number. id_corrent is the client
-- (app views call it id_cliente elsewhere).
--
-- erp-reads: public.pedidos_venda(id_pedido, id_empresa, num_pedido, num_ped_sar,
--   id_corrent, cod_vendedor, id_pauta, dt_emissao, situacao, valor_total, end_entrega,
--   observacao, origem)
create view app.vw_sitpedido as
select pv.id_pedido,
       e.id_empresa,
       pv.id_empresa  as id_filial,
       pv.num_pedido,
       pv.num_ped_sar,
       pv.id_corrent,
       pv.cod_vendedor,
       pv.id_pauta,
       pv.dt_emissao,
       btrim(pv.situacao) as situacao, -- char(1) in the ERP: no padding in the API
       case pv.situacao
         when 'A' then 'aberto'
         when 'F' then 'faturado'
         when 'C' then 'cancelado'
       end            as situacao_descricao,
       pv.valor_total,
       pv.end_entrega,
       pv.observacao,
       pv.origem
  from public.pedidos_venda pv
  join app.vw_empresas e on e.id_filial = pv.id_empresa;

comment on view app.vw_sitpedido is 'Campo: ERP orders and their situation A aberto | F faturado | C cancelado.';
