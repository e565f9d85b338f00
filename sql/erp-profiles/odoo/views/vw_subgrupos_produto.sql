-- app.vw_subgrupos_produto (odoo profile): product subgroups, the categories products sit on,
-- each inside its group (its parent category).
--
-- Why: discount rules can narrow a group to one subgroup; the rule editor lists them under
-- their group. A subgroup is a category of a company whose parent is a group
-- (app.vw_grupos_produto).
--
-- erp-reads: public.product_category(id, name, parent_id)
create view app.vw_subgrupos_produto as
select g.id_empresa,
       g.id_filial,
       g.cod_grupo,
       g.descricao  as descricao_grupo,
       s.id         as cod_subgrupo,
       s.name       as descricao
  from public.product_category s
  join app.vw_grupos_produto g on g.cod_grupo = s.parent_id;

comment on view app.vw_subgrupos_produto is 'Campo: product subgroups per tenant, with their group.';
