-- app.vw_grupos_produto (odoo profile): product groups, the second level of Odoo's product
-- category tree.
--
-- Why: discount rules are scoped by group and the rule editor lists them. The tree is: a root
-- per discount category, its groups, their subgroups; products sit on a subgroup. A group is
-- a category whose parent is a root (or, in a company without discount categories, a root
-- that holds subgroups); it belongs to a company through company_id.
--
-- erp-reads: public.product_category(id, name, parent_id, company_id)
create view app.vw_grupos_produto as
select e.id_empresa,
       e.id_filial,
       g.id   as cod_grupo,
       g.name as descricao
  from public.product_category g
  join app.vw_empresas e on e.id_filial = g.company_id
 where exists (select 1 from public.product_category s where s.parent_id = g.id)
   and (g.parent_id is null
        or exists (select 1 from public.product_category r where r.id = g.parent_id and r.parent_id is null));

comment on view app.vw_grupos_produto is 'Campo: product groups per tenant (second-level product categories).';
