-- app.produtos_fiscal_erp() (odoo profile): the fiscal data kept per product, or no rows when
-- the ERP keeps none.
--
-- Why: optional in the ERP contract (see the reference profile's file). Odoo's own fiscal
-- fields live in Brazilian localisation modules this ERP does not have: this is the
-- integrator's extension table x_campo_produto_fiscal, one row per product template (this
-- ERP sells one variant per template), the codes with their dots ('2201.10.00', which
-- app.vw_produtos_fiscal turns into digits), the origin as Odoo's selection text '0' to '8'.
-- The company is the template's. Looked up when the function runs; runs as its owner, like
-- the views.
--
-- erp-reads-optional: public.x_campo_produto_fiscal(product_tmpl_id, ncm, cest, origem, ipi_percent, write_date)
-- erp-reads-optional: public.product_product(id, product_tmpl_id)
-- erp-reads-optional: public.product_template(id, company_id)
create or replace function app.produtos_fiscal_erp()
returns table (id_filial integer, id_produto integer, ncm text, cest text, origem integer, perc_ipi numeric,
               atualizado_em timestamp)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
begin
  if to_regclass('public.x_campo_produto_fiscal') is null then
    return;
  end if;
  return query execute
    'select pt.company_id::integer, pp.id::integer, f.ncm::text, f.cest::text,
            case when f.origem ~ ''^[0-9]$'' then f.origem::integer end, f.ipi_percent::numeric,
            f.write_date::timestamp
       from public.x_campo_produto_fiscal f
       join public.product_template pt on pt.id = f.product_tmpl_id
       join public.product_product pp on pp.product_tmpl_id = pt.id';
end
$fn$;

comment on function app.produtos_fiscal_erp() is
  'Campo: the fiscal data kept per product (x_campo_produto_fiscal), or no rows when the ERP has none; optional in the ERP contract.';
