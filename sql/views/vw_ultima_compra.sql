-- app.vw_ultima_compra: the latest order of each client, wherever it was placed.
--
-- Why: a client with no order for more than 30 days counts as inactive on the rep
-- dashboard, and the portfolio shows lastOrderAt. Orders come from Campo (every order
-- that was not rejected) and from the ERP (every order that was not cancelled, including
-- the replicas of Campo orders, which carry the original's date), plus the ERP's own
-- last-purchase date for history older than its order table. One row per ERP client;
-- ultimo_pedido_em is null for a client who never ordered.
--
-- Written as per-client subqueries rather than one GROUP BY over all orders: the planner
-- then looks up only the clients a query asks for (a portfolio, one client) through the
-- indexes on the client column, instead of aggregating the ERP's whole order history.
--
-- erp-reads: public.pedidos_venda(id_corrent, dt_emissao, situacao)
-- erp-reads: public.corrent(id_corrent, id_empresa, tipo, dt_ultima_compra)
create view app.vw_ultima_compra as
select c.id_corrent as id_cliente,
       e.id_empresa,
       greatest(
         (select max(p.criado_em)
            from app.pedidos p
           where p.id_cliente = c.id_corrent and p.situa <> 4),
         (select max(pv.dt_emissao)::timestamptz
            from public.pedidos_venda pv
           where pv.id_corrent = c.id_corrent and pv.situacao <> 'C'),
         c.dt_ultima_compra::timestamptz
       ) as ultimo_pedido_em
  from public.corrent c
  join app.vw_empresas e on e.id_filial = c.id_empresa
 where c.tipo = 'C';

comment on view app.vw_ultima_compra is 'Campo: latest order per client across Campo (not rejected) and ERP (not cancelled) orders.';
