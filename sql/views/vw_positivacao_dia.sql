-- app.vw_positivacao_dia: positivation per tenant, representative and day.
--
-- Why: positivation is the number of distinct clients with at least one order that was
-- not rejected; the supervisor dashboard ranks reps by it and the manager's daily target
-- (config_empresa.meta_positivacao_dia) is a count of clients per day. Orders come from
-- Campo (not rejected nor cancelled by the ERP, by creation day) and from the ERP (not cancelled, by emission day);
-- replicas of Campo orders are left out so that a client is not counted on the approval
-- day as well.
--
-- erp-reads: public.pedidos_venda(id_pedido, id_empresa, id_corrent, cod_vendedor,
--   dt_emissao, situacao)
create view app.vw_positivacao_dia as
select o.id_empresa,
       o.cod_vendedor,
       o.dia,
       count(distinct o.id_cliente)::integer as clientes_positivados,
       count(*)::integer                     as pedidos
  from (
        select p.id_empresa, p.cod_vendedor, p.criado_em::date as dia, p.id_cliente
          from app.pedidos p
         where p.situa not in (4, 5)
        union all
        select e.id_empresa, pv.cod_vendedor, pv.dt_emissao::date, pv.id_corrent
          from public.pedidos_venda pv
          join app.vw_empresas e on e.id_filial = pv.id_empresa
         where pv.situacao <> 'C'
           and not exists (select 1 from app.pedidos p where p.erp_id_pedido = pv.id_pedido)
       ) o
 group by o.id_empresa, o.cod_vendedor, o.dia;

comment on view app.vw_positivacao_dia is 'Campo: distinct clients with a non-rejected order per tenant, rep and day (Campo and ERP).';
