-- Reference ERP: the secondary indexes a distributor's ERP keeps on its own tables, on the
-- foreign keys and dates its screens and reports filter by. PostgreSQL does not index a
-- foreign key by itself; an ERP that has run for years has added these. They are here so
-- that Campo's queries are measured against a realistic ERP, not a bare one.
-- erp-fixture drops them while it loads and builds them again afterwards.

-- The portfolio of a representative.
create index corrent_vendedor_idx on corrent (id_empresa, cod_vendedor);

create index produtos_grupo_idx on produtos (id_empresa, cod_grupo, cod_subgrupo);
create index produtos_ean_idx on produtos (ean);
create index pautas_precos_produto_idx on pautas_precos (id_produto);

-- A client's orders, and a representative's orders by date (sales reports).
create index pedidos_venda_corrent_idx on pedidos_venda (id_corrent);
create index pedidos_venda_vendedor_emissao_idx on pedidos_venda (id_empresa, cod_vendedor, dt_emissao);
create index pedidos_venda_itens_produto_idx on pedidos_venda_itens (id_produto);

-- Billing by representative and period, and the invoice of an order.
create index notas_fiscais_vendedor_emissao_idx on notas_fiscais (id_empresa, cod_vendedor, dt_emissao);
create index notas_fiscais_pedido_idx on notas_fiscais (id_pedido);
create index notas_fiscais_corrent_idx on notas_fiscais (id_corrent);

-- Receivables of a client, of an invoice, and by due date (collections).
create index titulos_receber_corrent_idx on titulos_receber (id_corrent);
create index titulos_receber_nota_idx on titulos_receber (id_nota);
create index titulos_receber_vencimento_idx on titulos_receber (id_empresa, dt_vencimento);

-- The tax rules of a company for a pair of states (the tax department's screen).
create index regras_fiscais_ufs_idx on regras_fiscais (id_empresa, uf_origem, uf_destino);
