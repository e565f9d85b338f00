-- app.vw_pedidos_cliente: every order of a client, Campo's and the ERP's, in one shape.
--
-- Why: GET /clients/{id}/orders shows the latest 10 orders of a client, wherever they were
-- placed, and the rep dashboard lists recent orders. A Campo order that was approved has
-- a replica in the ERP; the replica is left out so that the order shows once, and its ERP
-- situation lends the Campo order its status: approved, then invoiced ('F') or cancelled
-- ('C') as the ERP moves it. status uses the API's words: pending_approval, approved,
-- invoiced, rejected, and cancelled for orders the ERP cancelled. ERP-born orders that are
-- open count as approved. emitido_em_local is the same moment on Sao Paulo's wall clock
-- (named, not the session's: a client's mix dated by it must not change with the session
-- that rebuilds it), the ERP's own dt_emissao for ERP orders: a period
-- filtered on it reaches the ERP's indexes on dt_emissao, which the timestamptz cast in
-- emitido_em hides from the planner.
--
-- erp-reads: public.pedidos_venda(id_pedido, id_empresa, num_pedido, id_corrent,
--   cod_vendedor, dt_emissao, situacao, valor_total)
create view app.vw_pedidos_cliente as
select 'campo'::text       as origem,
       p.id                as id_pedido,
       p.erp_id_pedido     as id_pedido_erp,
       p.id_empresa,
       p.id_cliente,
       p.cod_vendedor,
       p.num_ped_sar,
       pv.num_pedido       as num_pedido_erp,
       p.criado_em         as emitido_em,
       case
         when p.situa = 1 then 'pending_approval'
         when p.situa = 4 then 'rejected'
         when p.situa = 5 then 'cancelled'
         when p.situa = 3 or pv.situacao = 'F' then 'invoiced'
         when pv.situacao = 'C' then 'cancelled'
         else 'approved'
       end                 as status,
       p.valor_total,
       p.criado_em at time zone 'America/Sao_Paulo' as emitido_em_local
  from app.pedidos p
  left join public.pedidos_venda pv on pv.id_pedido = p.erp_id_pedido
union all
select 'erp'::text,
       null::bigint,
       pv.id_pedido,
       e.id_empresa,
       pv.id_corrent,
       pv.cod_vendedor,
       null::integer,
       pv.num_pedido,
       pv.dt_emissao::timestamptz,
       case pv.situacao
         when 'F' then 'invoiced'
         when 'C' then 'cancelled'
         else 'approved'
       end,
       pv.valor_total,
       pv.dt_emissao
  from public.pedidos_venda pv
  join app.vw_empresas e on e.id_filial = pv.id_empresa
 where not exists (select 1 from app.pedidos p where p.erp_id_pedido = pv.id_pedido);

comment on view app.vw_pedidos_cliente is 'Campo: Campo and ERP orders of each client in one shape (replicas of Campo orders shown once).';
