-- app.vw_vendedor_limites: the discount ceilings in effect per representative and product
-- category.
--
-- Why: the order engine's base ceiling for a line is the rep's ceiling for the product's
-- category, else the rep's default (categoria null here), else 5%. A ceiling set in Campo
-- (app.limites_desconto_representante) overrides the ERP's for the same rep and category;
-- origem says which one a row comes from, so the cart can explain itself.
--
-- erp-reads: public.vendedores(id_empresa, cod_vendedor, perc_desc_max)
-- erp-reads: public.vendedores_desc_categoria(id_empresa, cod_vendedor, categoria, perc_desc_max)
create view app.vw_vendedor_limites as
with erp as (
  select e.id_empresa, v.cod_vendedor, null::text as categoria, v.perc_desc_max
    from public.vendedores v
    join app.vw_empresas e on e.id_filial = v.id_empresa
   where v.perc_desc_max is not null
  union all
  select e.id_empresa, d.cod_vendedor, d.categoria::text, d.perc_desc_max
    from public.vendedores_desc_categoria d
    join app.vw_empresas e on e.id_filial = d.id_empresa
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

comment on view app.vw_vendedor_limites is 'Campo: effective discount ceilings per rep and category (null = default); Campo overrides ERP.';
