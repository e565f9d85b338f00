-- Indexes Campo needs on ERP tables; created only where the ERP has none, named campo_*.
--
-- Why: the views filter ERP tables on columns an ERP may never have indexed (PostgreSQL
-- does not index a foreign key by itself). Without these, showing one client's last order
-- or open titles scans the ERP's whole order or receivables table. Each line asks
-- app.garantir_indice_erp for an index that starts with the listed columns: an existing
-- one is used as it is, and a campo_* index is built only when none exists, so an ERP
-- that already has them gets nothing new. A campo_* index adds no constraint and changes
-- no data. Building one locks writes to its table while it builds (seconds on a large
-- ERP): provision outside business hours the first time.
--
-- erp-reads: public.pedidos_venda(id_corrent, id_empresa, cod_vendedor, dt_emissao)
-- erp-reads: public.titulos_receber(id_corrent)
-- erp-reads: public.notas_fiscais(id_empresa, cod_vendedor, dt_emissao, id_pedido)
-- erp-reads: public.corrent(id_empresa, cod_vendedor)

-- vw_clientes (its last order), vw_pedidos_cliente: the orders of one client.
select app.garantir_indice_erp('public.pedidos_venda', array['id_corrent'], 'campo_pedidos_venda_cliente');
-- vw_positivacao_dia and a representative's recent orders.
select app.garantir_indice_erp('public.pedidos_venda', array['id_empresa', 'cod_vendedor', 'dt_emissao'],
                               'campo_pedidos_venda_vendedor');
-- vw_titulos_abertos, vw_clientes (its financial status): the titles of one client.
select app.garantir_indice_erp('public.titulos_receber', array['id_corrent'], 'campo_titulos_receber_cliente');
-- vw_notas_fiscais, vw_faturamento_mes: billing of a representative in a period.
select app.garantir_indice_erp('public.notas_fiscais', array['id_empresa', 'cod_vendedor', 'dt_emissao'],
                               'campo_notas_fiscais_vendedor');
-- vw_notas_pedido: the invoices of one order (the order's page).
select app.garantir_indice_erp('public.notas_fiscais', array['id_pedido'], 'campo_notas_fiscais_pedido');
-- vw_clientes: a representative's portfolio.
select app.garantir_indice_erp('public.corrent', array['id_empresa', 'cod_vendedor'], 'campo_corrent_vendedor');
