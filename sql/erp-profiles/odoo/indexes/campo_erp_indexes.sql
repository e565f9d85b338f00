-- Indexes Campo needs on the Odoo tables (odoo profile); created only where the ERP has none,
-- named campo_*.
--
-- Why: as in the reference profile's file: the views look up one client's orders, open
-- receivables and invoices, a salesperson's portfolio and an order's invoices by name. Odoo
-- indexes many of these itself (index=True fields); app.garantir_indice_erp builds a campo_*
-- index only where no index starts with the same columns.
--
-- erp-reads: public.sale_order(partner_id, company_id, name)
-- erp-reads: public.sale_order_line(order_id)
-- erp-reads: public.account_move_line(partner_id, move_id)
-- erp-reads: public.account_move(company_id, invoice_origin)
-- erp-reads: public.res_partner(company_id, user_id)
-- erp-reads: public.product_pricelist_item(pricelist_id, product_id)

-- vw_clientes (its last order), vw_pedidos_cliente: the orders of one client.
select app.garantir_indice_erp('public.sale_order', array['partner_id'], 'campo_sale_order_partner');
-- vw_notas_fiscais, vw_notas_pedido: the order an invoice names.
select app.garantir_indice_erp('public.sale_order', array['company_id', 'name'], 'campo_sale_order_name');
-- vw_pedidos_erp_itens: the lines of one order.
select app.garantir_indice_erp('public.sale_order_line', array['order_id'], 'campo_sale_order_line_order');
-- vw_titulos_abertos, vw_clientes (its financial status): the receivables of one client.
select app.garantir_indice_erp('public.account_move_line', array['partner_id'], 'campo_account_move_line_partner');
-- notas_itens_erp: the lines of one invoice.
select app.garantir_indice_erp('public.account_move_line', array['move_id'], 'campo_account_move_line_move');
-- vw_notas_pedido: the invoices of one order.
select app.garantir_indice_erp('public.account_move', array['company_id', 'invoice_origin'],
                               'campo_account_move_origin');
-- vw_clientes: a salesperson's portfolio.
select app.garantir_indice_erp('public.res_partner', array['company_id', 'user_id'], 'campo_res_partner_vendedor');
-- vw_precos: the items of a price list.
select app.garantir_indice_erp('public.product_pricelist_item', array['pricelist_id', 'product_id'],
                               'campo_pricelist_item_produto');
