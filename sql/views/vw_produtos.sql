-- app.vw_produtos: the catalog, one row per ERP product.
--
-- Why: the catalog screens and the order engine need each product's category
-- (productCategory, which selects the rep's ceiling), group and subgroup (which select the
-- discount rules), unit and image. Inactive products stay in the view with ativo = false
-- so that catalog sync can remove them from the devices; listings show only ativo ones.
-- atualizado_em drives incremental sync.
--
-- erp-reads: public.produtos(id_produto, id_empresa, cod_produto, descricao, unidade,
--   categoria, cod_grupo, cod_subgrupo, ean, peso_kg, imagem, ativo, dt_alteracao)
-- erp-reads: public.grupos_produto(id_empresa, cod_grupo, descricao)
-- erp-reads: public.subgrupos_produto(id_empresa, cod_grupo, cod_subgrupo, descricao)
create view app.vw_produtos as
select p.id_produto,
       e.id_empresa,
       p.id_empresa    as id_filial,
       p.cod_produto,
       p.descricao,
       p.unidade,
       p.categoria,
       p.cod_grupo,
       g.descricao     as descricao_grupo,
       p.cod_subgrupo,
       s.descricao     as descricao_subgrupo,
       nullif(btrim(p.ean), '') as ean, -- char(13) in the ERP: no padding in the API
       p.peso_kg,
       p.imagem,
       p.ativo = 'S'   as ativo,
       p.dt_alteracao  as atualizado_em
  from public.produtos p
  join app.vw_empresas e on e.id_filial = p.id_empresa
  left join public.grupos_produto g
         on g.id_empresa = p.id_empresa and g.cod_grupo = p.cod_grupo
  left join public.subgrupos_produto s
         on s.id_empresa = p.id_empresa and s.cod_grupo = p.cod_grupo and s.cod_subgrupo = p.cod_subgrupo;

comment on view app.vw_produtos is 'Campo: products with category, group, subgroup, unit and image; ativo false ones are kept for sync.';
