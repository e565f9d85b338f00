-- app.vw_subgrupos_produto: product subgroups, each inside its group.
--
-- Why: discount rules can narrow a group to one subgroup (regras_desconto.subgrupo); the
-- rule editor lists them under their group.
--
-- erp-reads: public.subgrupos_produto(id_empresa, cod_grupo, cod_subgrupo, descricao)
-- erp-reads: public.grupos_produto(id_empresa, cod_grupo, descricao)
create view app.vw_subgrupos_produto as
select e.id_empresa,
       s.id_empresa as id_filial,
       s.cod_grupo,
       g.descricao  as descricao_grupo,
       s.cod_subgrupo,
       s.descricao
  from public.subgrupos_produto s
  join public.grupos_produto g on g.id_empresa = s.id_empresa and g.cod_grupo = s.cod_grupo
  join app.vw_empresas e on e.id_filial = s.id_empresa;

comment on view app.vw_subgrupos_produto is 'Campo: product subgroups per tenant, with their group.';
