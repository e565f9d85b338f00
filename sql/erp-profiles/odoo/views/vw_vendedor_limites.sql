-- app.vw_vendedor_limites (odoo profile): the discount ceilings in effect per salesperson and
-- product category.
--
-- Why: as in the reference profile, the engine takes the ceiling for the product's category,
-- else the salesperson's default (categoria null), else 5%, and a ceiling set in Campo wins.
-- The ERP's ceilings are the integrator's extension tables: x_campo_vendedor (default) and
-- x_campo_vendedor_categoria, whose categ_id is a root product category; its name is the
-- category code that app.vw_produtos shows as categoria.
--
-- erp-reads: public.x_campo_vendedor(user_id, perc_desc_max)
-- erp-reads: public.x_campo_vendedor_categoria(user_id, categ_id, perc_desc_max)
-- erp-reads: public.product_category(id, name)
-- erp-reads: public.res_users(id, company_id)
create view app.vw_vendedor_limites as
with erp as (
  select e.id_empresa, u.id as cod_vendedor, null::text as categoria, x.perc_desc_max
    from public.x_campo_vendedor x
    join public.res_users u on u.id = x.user_id
    join app.vw_empresas e on e.id_filial = u.company_id
   where x.perc_desc_max is not null
  union all
  select e.id_empresa, u.id, c.name::text, d.perc_desc_max
    from public.x_campo_vendedor_categoria d
    join public.product_category c on c.id = d.categ_id
    join public.res_users u on u.id = d.user_id
    join app.vw_empresas e on e.id_filial = u.company_id
)
select l.id_empresa, l.cod_vendedor, l.categoria, l.perc_desc_max, 'campo'::text as origem
  from app.limites_desconto_representante l
union all
select erp.id_empresa, erp.cod_vendedor, erp.categoria, erp.perc_desc_max, 'erp'::text as origem
  from erp
 where not exists (
         select 1
           from app.limites_desconto_representante l
          where l.id_empresa = erp.id_empresa
            and l.cod_vendedor = erp.cod_vendedor
            and coalesce(l.categoria, '') = coalesce(erp.categoria, ''));

comment on view app.vw_vendedor_limites is 'Campo: effective discount ceilings per salesperson and category (null = default); Campo overrides ERP.';
