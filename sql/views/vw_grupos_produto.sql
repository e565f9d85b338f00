-- app.vw_grupos_produto: product groups.
--
-- Why: discount rules are scoped by group (regras_desconto.grupo) and the rule editor
-- lists the groups to choose from (GET /politicas/grupos-produto).
--
-- erp-reads: public.grupos_produto(id_empresa, cod_grupo, descricao)
create view app.vw_grupos_produto as
select e.id_empresa,
       g.id_empresa as id_filial,
       g.cod_grupo,
       g.descricao
  from public.grupos_produto g
  join app.vw_empresas e on e.id_filial = g.id_empresa;

comment on view app.vw_grupos_produto is 'Campo: product groups per tenant.';
