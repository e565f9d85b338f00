-- app.vw_pedidos_erp_itens: the lines of ERP orders.
--
-- Why: the detail of a historical ERP order (from a client's order list or a SAC ticket
-- about an ERP order) shows its lines with the product's code, description and category.
--
-- erp-reads: public.pedidos_venda_itens(id_pedido, seq, id_produto, quantidade,
--   preco_tabela, preco_unitario, perc_desconto, valor_total)
-- erp-reads: public.pedidos_venda(id_pedido, id_empresa)
-- erp-reads: public.produtos(id_produto, cod_produto, descricao, unidade, categoria)
create view app.vw_pedidos_erp_itens as
select i.id_pedido,
       e.id_empresa,
       i.seq,
       i.id_produto,
       p.cod_produto,
       p.descricao,
       p.unidade,
       p.categoria,
       i.quantidade,
       i.preco_tabela,
       i.preco_unitario,
       i.perc_desconto,
       i.valor_total
  from public.pedidos_venda_itens i
  join public.pedidos_venda pv on pv.id_pedido = i.id_pedido
  join app.vw_empresas e on e.id_filial = pv.id_empresa
  left join public.produtos p on p.id_produto = i.id_produto;

comment on view app.vw_pedidos_erp_itens is 'Campo: lines of ERP orders with product code, description and category.';
