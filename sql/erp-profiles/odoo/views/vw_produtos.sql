-- app.vw_produtos (odoo profile): the catalog, one row per product variant (product_product).
--
-- Why: as in the reference profile, the screens and the order engine need each product's
-- discount category, group and subgroup, unit and image. In Odoo a variant carries the code
-- (default_code) and barcode, its template the name, unit (uom_uom), weight and category; the
-- category is the subgroup, its parent the group and the group's parent, a root category,
-- names the discount category. A product is active while both variant and template are;
-- inactive ones stay for sync. atualizado_em is the later write of the two.
--
-- erp-reads: public.product_product(id, product_tmpl_id, default_code, barcode, active,
--   write_date)
-- erp-reads: public.product_template(id, name, categ_id, uom_id, company_id, weight,
--   x_imagem_url, active, write_date)
-- erp-reads: public.product_category(id, name, parent_id)
-- erp-reads: public.uom_uom(id, name)
create view app.vw_produtos as
select pp.id                                   as id_produto,
       e.id_empresa,
       e.id_filial,
       pp.default_code                         as cod_produto,
       pt.name                                 as descricao,
       u.name                                  as unidade,
       r.name                                  as categoria,
       g.id                                    as cod_grupo,
       g.name                                  as descricao_grupo,
       s.id                                    as cod_subgrupo,
       s.name                                  as descricao_subgrupo,
       nullif(btrim(pp.barcode), '')           as ean,
       pt.weight                               as peso_kg,
       pt.x_imagem_url                         as imagem,
       pp.active and pt.active                 as ativo,
       greatest(pp.write_date, pt.write_date)  as atualizado_em
  from public.product_product pp
  join public.product_template pt on pt.id = pp.product_tmpl_id
  join app.vw_empresas e on e.id_filial = pt.company_id
  left join public.uom_uom u on u.id = pt.uom_id
  left join public.product_category s on s.id = pt.categ_id
  left join public.product_category g on g.id = s.parent_id
  left join public.product_category r on r.id = g.parent_id;

comment on view app.vw_produtos is 'Campo: product variants with discount category, group, subgroup, unit and image; ativo false ones are kept for sync.';
