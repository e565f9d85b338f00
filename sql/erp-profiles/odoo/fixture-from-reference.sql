-- The odoo profile's test and demo ERP, filled from the reference fixture: `campo erp-fixture
-- --profile odoo` generates the reference ERP's data, moves its tables into schema referencia,
-- runs this file (after erp/001_tables.sql created the Odoo-like tables in public) and drops
-- schema referencia. Both profiles then hold the same people, clients, products, prices,
-- orders, invoices and receivables, so tests that compare numbers mean the same on both.
--
-- Ids: a client or supplier keeps its id (res_partner.id = id_corrent), a product too
-- (product_product.id = product_template.id = id_produto), a company, an order
-- (sale_order.id = id_pedido), an invoice (account_move.id = id_nota) and a receivable
-- (account_move_line.id = id_titulo). Odoo's ids are global where the reference's are per
-- company, so those are renumbered: a rep is the user 1000 * company + cod_vendedor, a
-- supervisor the user 1000 * company + 500 + cod_supervisor and the team
-- 100 * company + cod_supervisor, a price list 100 * company + id_pauta, a payment term
-- 100 * company + id_condicao, a group category 10000 * company + 100 * cod_grupo and its
-- subgroups that plus cod_subgrupo. Users' own contacts are partners 1000000 + user id.
-- Odoo keeps datetimes in UTC: an order's date_order is the reference's dt_emissao, the
-- distributor's wall clock in Sao Paulo, in UTC.

insert into res_country_state (id, code, name)
select row_number() over (order by uf), uf, uf
  from (select btrim(uf) as uf from referencia.empresas union select btrim(uf) from referencia.corrent
        union select btrim(uf_origem) from referencia.regras_fiscais
        union select btrim(uf_destino) from referencia.regras_fiscais) s;

insert into res_company (id, parent_id, name, x_nome_fantasia, vat, company_registry, street, city, state_id,
                         zip, phone, active)
select e.id_empresa, e.id_matriz, e.razao_social, e.nome_fantasia,
       regexp_replace(e.cnpj, '^(..)(...)(...)(....)(..)$', '\1.\2.\3/\4-\5'),
       e.inscricao_estadual, e.endereco, e.cidade, st.id,
       regexp_replace(e.cep, '^(.....)(...)$', '\1-\2'), e.telefone, e.ativo = 'S'
  from referencia.empresas e
  left join res_country_state st on st.code = btrim(e.uf)
 order by e.id_matriz nulls first, e.id_empresa;

-- Clients and suppliers in the one partner table.
insert into res_partner (id, name, x_nome_fantasia, company_id, is_company, customer_rank, supplier_rank, vat,
                         l10n_br_ie_code, street, street_number, street2, l10n_br_district, city, state_id, zip,
                         phone, email, user_id, property_product_pricelist, property_payment_term_id,
                         partner_latitude, partner_longitude, x_bloqueio_financeiro, x_data_ultima_compra,
                         x_origem, active, create_date, write_date)
select c.id_corrent, c.razao_social, c.nome_fantasia, c.id_empresa, c.tipo_pessoa = 'J',
       case when c.tipo = 'C' then 1 else 0 end, case when c.tipo = 'F' then 1 else 0 end,
       case when length(c.cnpj_cpf) = 14
            then regexp_replace(c.cnpj_cpf, '^(..)(...)(...)(....)(..)$', '\1.\2.\3/\4-\5')
            else regexp_replace(c.cnpj_cpf, '^(...)(...)(...)(..)$', '\1.\2.\3-\4') end,
       c.inscricao_estadual, c.endereco, c.numero, c.complemento, c.bairro, c.cidade, st.id,
       regexp_replace(c.cep, '^(.....)(...)$', '\1-\2'), c.telefone, c.email,
       case when c.cod_vendedor is not null then 1000 * c.id_empresa + c.cod_vendedor end,
       case when c.id_pauta is not null then 100 * c.id_empresa + c.id_pauta end,
       case when c.id_condicao is not null then 100 * c.id_empresa + c.id_condicao end,
       c.latitude, c.longitude,
       case when c.situacao = 'B' then 'S' else 'N' end,
       to_char(c.dt_ultima_compra, 'DD/MM/YYYY'),
       c.origem, c.ativo = 'S', c.dt_cadastro, c.dt_cadastro
  from referencia.corrent c
  left join res_country_state st on st.code = btrim(c.uf);

-- Reps and supervisors: a contact and a user each.
create temporary table fixture_usuarios on commit drop as
select 1000 * v.id_empresa + v.cod_vendedor as id, v.id_empresa, v.nome, v.email, v.telefone, v.ativo = 'S' as ativo,
       100 * v.id_empresa + v.cod_supervisor as team_id, v.perc_desc_max, v.perc_comissao, v.perc_comissao_flex,
       true as vendedor
  from referencia.vendedores v
union all
select 1000 * s.id_empresa + 500 + s.cod_supervisor, s.id_empresa, s.nome, s.email, null, s.ativo = 'S',
       100 * s.id_empresa + s.cod_supervisor, null, 0, 0, false
  from referencia.supervisores s;

insert into res_partner (id, name, company_id, email, phone, active)
select 1000000 + u.id, u.nome, u.id_empresa, u.email, u.telefone, u.ativo from fixture_usuarios u;

insert into res_users (id, login, partner_id, company_id, active)
select u.id, coalesce(u.email, 'usuario' || u.id), 1000000 + u.id, u.id_empresa, u.ativo from fixture_usuarios u;

insert into crm_team (id, name, company_id, user_id, active)
select 100 * s.id_empresa + s.cod_supervisor, 'Equipe ' || s.nome, s.id_empresa,
       1000 * s.id_empresa + 500 + s.cod_supervisor, s.ativo = 'S'
  from referencia.supervisores s;

insert into crm_team_member (id, crm_team_id, user_id, active)
select row_number() over (order by u.id), u.team_id, u.id, true from fixture_usuarios u where u.vendedor;

insert into x_campo_vendedor (user_id, perc_desc_max, perc_comissao, perc_comissao_flex)
select u.id, u.perc_desc_max, u.perc_comissao, u.perc_comissao_flex from fixture_usuarios u where u.vendedor;

-- Categories: a root per discount category, then groups and subgroups of each company.
insert into product_category (id, name, complete_name, parent_id, company_id)
select row_number() over (order by categoria), categoria, categoria, null::integer, null::integer
  from (select distinct categoria from referencia.produtos) c;

insert into product_category (id, name, complete_name, parent_id, company_id)
select 10000 * g.id_empresa + 100 * g.cod_grupo, g.descricao, coalesce(r.name || ' / ', '') || g.descricao, r.id,
       g.id_empresa
  from referencia.grupos_produto g
  left join lateral (select min(p.categoria) as categoria from referencia.produtos p
                      where p.id_empresa = g.id_empresa and p.cod_grupo = g.cod_grupo) pc on true
  left join product_category r on r.parent_id is null and r.name = pc.categoria;

insert into product_category (id, name, complete_name, parent_id, company_id)
select 10000 * s.id_empresa + 100 * s.cod_grupo + s.cod_subgrupo, s.descricao,
       g.complete_name || ' / ' || s.descricao, g.id, s.id_empresa
  from referencia.subgrupos_produto s
  join product_category g on g.id = 10000 * s.id_empresa + 100 * s.cod_grupo;

insert into x_campo_vendedor_categoria (user_id, categ_id, perc_desc_max)
select 1000 * d.id_empresa + d.cod_vendedor, r.id, d.perc_desc_max
  from referencia.vendedores_desc_categoria d
  join product_category r on r.parent_id is null and r.name = d.categoria;

insert into uom_uom (id, name)
select row_number() over (order by unidade), unidade from (select distinct unidade from referencia.produtos) u;

insert into product_template (id, name, categ_id, uom_id, company_id, weight, x_imagem_url, active, write_date)
select p.id_produto, p.descricao, 10000 * p.id_empresa + 100 * p.cod_grupo + p.cod_subgrupo, u.id, p.id_empresa,
       p.peso_kg, p.imagem, p.ativo = 'S', p.dt_alteracao
  from referencia.produtos p join uom_uom u on u.name = p.unidade;

insert into product_product (id, product_tmpl_id, default_code, barcode, active, write_date)
select p.id_produto, p.id_produto, p.cod_produto, nullif(btrim(p.ean), ''), p.ativo = 'S', p.dt_alteracao
  from referencia.produtos p;

insert into stock_location (id, name, usage, company_id)
select e.id_empresa, 'Estoque', 'internal', e.id_empresa from referencia.empresas e
union all
select 1000 + e.id_empresa, 'Clientes', 'customer', e.id_empresa from referencia.empresas e;

-- On hand, plus what left for customers (a customer location is not stock on hand).
insert into stock_quant (product_id, location_id, company_id, quantity)
select s.id_produto, s.id_empresa, s.id_empresa, s.quantidade from referencia.estoque s
union all
select s.id_produto, 1000 + s.id_empresa, s.id_empresa, 5 from referencia.estoque s where s.id_produto % 3 = 0;

insert into product_pricelist (id, name, company_id, active)
select 100 * p.id_empresa + p.id_pauta, p.descricao, p.id_empresa, p.ativo = 'S' from referencia.pautas p;

-- Every price in force since the day it changed; one product in four also keeps the price it
-- had before, closed the second before, as a long price list does.
insert into product_pricelist_item (pricelist_id, applied_on, product_id, compute_price, fixed_price, date_start,
                                    date_end, write_date)
select 100 * pp.id_empresa + pp.id_pauta, '0_product_variant', pp.id_produto, 'fixed', pp.preco,
       case when pp.id_produto % 4 = 0 then pp.dt_alteracao::date::timestamp end, null, pp.dt_alteracao
  from referencia.pautas_precos pp
union all
select 100 * pp.id_empresa + pp.id_pauta, '0_product_variant', pp.id_produto, 'fixed', round(pp.preco * 0.95, 4),
       null, pp.dt_alteracao::date::timestamp - interval '1 second', pp.dt_alteracao
  from referencia.pautas_precos pp
 where pp.id_produto % 4 = 0;

insert into account_payment_term (id, name, company_id, active)
select 100 * c.id_empresa + c.id_condicao, c.descricao, c.id_empresa, c.ativo = 'S'
  from referencia.condicoes_pagamento c;

insert into x_campo_partner_payment_term (partner_id, payment_term_id)
select cc.id_corrent, 100 * cc.id_empresa + cc.id_condicao from referencia.corrent_condicoes cc;

insert into x_campo_visita (partner_id, dia_semana, intervalo_semanas, data_base)
select v.id_corrent, v.dia_semana, v.intervalo_semanas, v.data_base from referencia.corrent_visitas v;

-- Fiscal data in the integrator's x_campo tables, codes written with Odoo's dots.
insert into x_campo_produto_fiscal (product_tmpl_id, ncm, cest, origem, ipi_percent, write_date)
select f.id_produto, regexp_replace(f.ncm, '^(....)(..)(..)$', '\1.\2.\3'),
       regexp_replace(f.cest, '^(..)(...)(..)$', '\1.\2.\3'), f.origem::text, f.perc_ipi, f.dt_alteracao
  from referencia.produtos_fiscal f;

insert into x_campo_partner_fiscal (partner_id, contribuinte_icms, simples_nacional, consumidor_final)
select f.id_corrent, f.contribuinte_icms = 'S', f.simples_nacional = 'S', f.consumidor_final = 'S'
  from referencia.corrent_fiscal f;

insert into x_campo_regra_fiscal (id, company_id, ncm, state_from_id, state_to_id, regime, icms_percent, icms_st,
                                  mva_percent, icms_st_percent, fcp_percent, fcp_st_percent,
                                  base_reduction_percent, write_date)
select r.id_regra, r.id_empresa, regexp_replace(r.ncm, '^(....)(..)(..)$', '\1.\2.\3'), o.id, d.id,
       case r.regime when 'R' then 'resale' when 'S' then 'simples' when 'C' then 'final_consumer'
                     when 'N' then 'non_contributor' end,
       r.aliq_icms, r.icms_st = 'S', r.mva, r.aliq_icms_st, r.perc_fcp, r.perc_fcp_st, r.perc_red_base, r.dt_alteracao
  from referencia.regras_fiscais r
  join res_country_state o on o.code = btrim(r.uf_origem)
  join res_country_state d on d.code = btrim(r.uf_destino);

insert into sale_order (id, name, company_id, partner_id, user_id, team_id, pricelist_id, payment_term_id,
                        date_order, state, invoice_status, amount_untaxed, amount_total, origin,
                        client_order_ref, note, x_endereco_entrega, create_date)
select pv.id_pedido, 'S' || lpad(pv.num_pedido::text, 5, '0'), pv.id_empresa, pv.id_corrent,
       1000 * pv.id_empresa + pv.cod_vendedor, 100 * v.id_empresa + v.cod_supervisor,
       100 * pv.id_empresa + pv.id_pauta, 100 * pv.id_empresa + pv.id_condicao,
       pv.dt_emissao at time zone 'America/Sao_Paulo' at time zone 'UTC',
       case pv.situacao when 'C' then 'cancel' else 'sale' end,
       case pv.situacao when 'F' then 'invoiced' when 'A' then 'to invoice' else 'no' end,
       pv.valor_total, pv.valor_total, case when pv.origem = 'CAMPO' then 'CAMPO' end, pv.num_ped_sar::text,
       pv.observacao, pv.end_entrega, pv.dt_emissao at time zone 'America/Sao_Paulo' at time zone 'UTC'
  from referencia.pedidos_venda pv
  join referencia.vendedores v on v.id_empresa = pv.id_empresa and v.cod_vendedor = pv.cod_vendedor;

insert into sale_order_line (order_id, sequence, product_id, name, product_uom_qty, price_unit, discount,
                             price_reduce, price_subtotal, company_id)
select i.id_pedido, i.seq, i.id_produto, p.descricao, i.quantidade, i.preco_tabela, i.perc_desconto,
       i.preco_unitario, i.valor_total, pv.id_empresa
  from referencia.pedidos_venda_itens i
  join referencia.pedidos_venda pv on pv.id_pedido = i.id_pedido
  join referencia.produtos p on p.id_produto = i.id_produto
 order by i.id_pedido, i.seq;

insert into ir_sequence (id, name, code, company_id, implementation, prefix, padding, number_next)
select e.id_empresa, 'Pedidos de venda', 'sale.order', e.id_empresa, 'no_gap', 'S', 5,
       coalesce((select max(pv.num_pedido) from referencia.pedidos_venda pv where pv.id_empresa = e.id_empresa), 0) + 1
  from referencia.empresas e;

insert into account_move (id, name, move_type, state, company_id, partner_id, invoice_user_id, invoice_date, date,
                          invoice_origin, amount_total, x_nf_numero, x_nf_serie)
select n.id_nota, 'NF/' || n.serie || '/' || lpad(n.num_nota::text, 6, '0'), 'out_invoice',
       case when n.cancelada = 'S' then 'cancel' else 'posted' end, n.id_empresa, n.id_corrent,
       1000 * n.id_empresa + n.cod_vendedor, n.dt_emissao, n.dt_emissao,
       'S' || lpad(pv.num_pedido::text, 5, '0'), n.valor_total, n.num_nota, n.serie
  from referencia.notas_fiscais n
  left join referencia.pedidos_venda pv on pv.id_pedido = n.id_pedido;

select setval('account_move_id_seq', coalesce((select max(id) from account_move), 0) + 1, false);

-- Receivables without an invoice (a renegotiation, an old balance) are entries of their own.
create temporary table fixture_lancamentos on commit drop as
select t.id_titulo, nextval('account_move_id_seq')::integer as move_id
  from referencia.titulos_receber t where t.id_nota is null order by t.id_titulo;

insert into account_move (id, name, move_type, state, company_id, partner_id, date, amount_total)
select l.move_id, 'LANC/' || t.num_documento, 'entry', 'posted', t.id_empresa, t.id_corrent, t.dt_emissao, t.valor
  from fixture_lancamentos l join referencia.titulos_receber t on t.id_titulo = l.id_titulo;

insert into account_move_line (id, move_id, company_id, partner_id, display_type, account_type, name, date,
                               date_maturity, debit, amount_residual, reconciled)
select t.id_titulo, coalesce(t.id_nota, l.move_id), t.id_empresa, t.id_corrent, 'payment_term', 'asset_receivable',
       t.num_documento, t.dt_emissao, t.dt_vencimento, t.valor, t.valor - t.valor_pago, t.valor_pago >= t.valor
  from referencia.titulos_receber t left join fixture_lancamentos l on l.id_titulo = t.id_titulo;

insert into account_partial_reconcile (debit_move_id, amount, max_date)
select t.id_titulo, t.valor_pago, coalesce(t.dt_pagamento, t.dt_vencimento)
  from referencia.titulos_receber t where t.valor_pago > 0;

select setval('account_move_line_id_seq', coalesce((select max(id) from account_move_line), 0) + 1, false);

insert into account_move_line (move_id, company_id, partner_id, display_type, name, product_id, quantity, price_unit,
                               price_subtotal, date, credit)
select i.id_nota, n.id_empresa, n.id_corrent, 'product', p.descricao, i.id_produto, i.quantidade,
       i.valor_unitario, i.valor_total, n.dt_emissao, i.valor_total
  from referencia.notas_fiscais_itens i
  join referencia.notas_fiscais n on n.id_nota = i.id_nota
  join referencia.produtos p on p.id_produto = i.id_produto
 order by i.id_nota, i.seq;

select setval('res_partner_id_seq', coalesce((select max(id) from res_partner), 0) + 1, false);
select setval('sale_order_id_seq', coalesce((select max(id) from sale_order), 0) + 1, false);
select setval('sale_order_line_id_seq', coalesce((select max(id) from sale_order_line), 0) + 1, false);
select setval('stock_quant_id_seq', coalesce((select max(id) from stock_quant), 0) + 1, false);
select setval('product_pricelist_item_id_seq', coalesce((select max(id) from product_pricelist_item), 0) + 1, false);
select setval('account_partial_reconcile_id_seq',
              coalesce((select max(id) from account_partial_reconcile), 0) + 1, false);
