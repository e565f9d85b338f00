-- app.vw_precos: the list price of each product on each pauta.
--
-- Why: the server prices every order line from here (preco_tabela of the line) and never
-- trusts a price sent by a device; the catalog shows it. atualizado_em drives incremental
-- sync of prices.
--
-- erp-reads: public.pautas_precos(id_empresa, id_pauta, id_produto, preco, dt_alteracao)
create view app.vw_precos as
select e.id_empresa,
       pp.id_empresa   as id_filial,
       pp.id_pauta,
       pp.id_produto,
       pp.preco,
       pp.dt_alteracao as atualizado_em
  from public.pautas_precos pp
  join app.vw_empresas e on e.id_filial = pp.id_empresa;

comment on view app.vw_precos is 'Campo: list price per pauta and product.';
