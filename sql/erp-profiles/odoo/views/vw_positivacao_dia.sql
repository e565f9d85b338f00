-- app.vw_positivacao_dia (odoo profile): positivation per tenant, salesperson and day.
--
-- Why: as in the reference profile: distinct clients with an order not rejected nor cancelled (Campo's, by
-- creation day) or not cancelled (the ERP's sale orders, by their day on the session's wall
-- clock, through app.vw_sitpedido), replicas of Campo orders left out.
--
-- erp-reads: (none directly; see vw_sitpedido)
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
        select sp.id_empresa, sp.cod_vendedor, sp.dt_emissao::date, sp.id_corrent
          from app.vw_sitpedido sp
         where sp.situacao <> 'C'
           and not exists (select 1 from app.pedidos p where p.erp_id_pedido = sp.id_pedido)
       ) o
 group by o.id_empresa, o.cod_vendedor, o.dia;

comment on view app.vw_positivacao_dia is 'Campo: distinct clients with a non-rejected order per tenant, salesperson and day (Campo and ERP).';
