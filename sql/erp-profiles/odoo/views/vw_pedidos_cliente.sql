-- app.vw_pedidos_cliente (odoo profile): every order of a client, Campo's and the ERP's, in
-- one shape.
--
-- Why: as in the reference profile (GET /clients/{id}/orders, the rep dashboard): a Campo
-- order's replica is left out and lends the Campo order its ERP situation. The ERP's sale
-- orders are read through app.vw_sitpedido, which maps Odoo's state and invoice_status and
-- leaves quotations out; emitido_em_local is the order's date on Sao Paulo's wall clock,
-- named rather than the session's (as in the reference profile).
--
-- erp-reads: (none directly; see vw_sitpedido)
create view app.vw_pedidos_cliente as
select 'campo'::text       as origem,
       p.id                as id_pedido,
       p.erp_id_pedido     as id_pedido_erp,
       p.id_empresa,
       p.id_cliente,
       p.cod_vendedor,
       p.num_ped_sar,
       sp.num_pedido       as num_pedido_erp,
       p.criado_em         as emitido_em,
       case
         when p.situa = 1 then 'pending_approval'
         when p.situa = 4 then 'rejected'
         when p.situa = 5 then 'cancelled'
         when p.situa = 3 or sp.situacao = 'F' then 'invoiced'
         when sp.situacao = 'C' then 'cancelled'
         else 'approved'
       end                 as status,
       p.valor_total,
       p.criado_em at time zone 'America/Sao_Paulo' as emitido_em_local
  from app.pedidos p
  left join app.vw_sitpedido sp on sp.id_pedido = p.erp_id_pedido
union all
select 'erp'::text,
       null::bigint,
       sp.id_pedido,
       sp.id_empresa,
       sp.id_corrent,
       sp.cod_vendedor,
       null::integer,
       sp.num_pedido,
       sp.dt_emissao::timestamptz,
       case sp.situacao
         when 'F' then 'invoiced'
         when 'C' then 'cancelled'
         else 'approved'
       end,
       sp.valor_total,
       sp.dt_emissao
  from app.vw_sitpedido sp
 where not exists (select 1 from app.pedidos p where p.erp_id_pedido = sp.id_pedido);

comment on view app.vw_pedidos_cliente is 'Campo: Campo and ERP orders of each client in one shape (replicas of Campo orders shown once).';
