-- app.vw_pedidos_erp_itens (odoo profile): the lines of ERP sale orders.
--
-- Why: the detail of a historical order shows its lines with the product's code, name and
-- category. Odoo's line keeps the list price (price_unit), the discount in percent, the unit
-- price after it (price_reduce) and the line's total before taxes (price_subtotal); seq is
-- the line's position (sequence, then id).
--
-- erp-reads: public.sale_order_line(id, order_id, sequence, product_id, product_uom_qty,
--   price_unit, discount, price_reduce, price_subtotal)
-- erp-reads: public.sale_order(id, company_id)
create view app.vw_pedidos_erp_itens as
select i.order_id                                                       as id_pedido,
       e.id_empresa,
       (row_number() over (partition by i.order_id order by i.sequence, i.id))::integer as seq,
       i.product_id                                                     as id_produto,
       p.cod_produto,
       p.descricao,
       p.unidade,
       p.categoria,
       i.product_uom_qty                                                as quantidade,
       i.price_unit                                                     as preco_tabela,
       i.price_reduce                                                   as preco_unitario,
       i.discount                                                       as perc_desconto,
       i.price_subtotal                                                 as valor_total
  from public.sale_order_line i
  join public.sale_order so on so.id = i.order_id
  join app.vw_empresas e on e.id_filial = so.company_id
  left join app.vw_produtos p on p.id_produto = i.product_id;

comment on view app.vw_pedidos_erp_itens is 'Campo: lines of ERP sale orders with product code, name and category.';
