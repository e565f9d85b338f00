-- app.produtos_fiscal_erp(): the fiscal data the ERP keeps per product (NCM, CEST, origin, IPI
-- rate), or no rows when it keeps none.
--
-- Why: taxes on an order line (ICMS, ICMS-ST, IPI, FCP) start from the product's NCM and
-- origin, and fiscal data is optional in the ERP contract: not every ERP lets Campo read it.
-- A view over a missing table cannot even be created, so the table is looked up when the
-- function runs: an ERP without public.produtos_fiscal provisions all the same (Campo then
-- shows prices without taxes), and one that gains the table later is read at once, without
-- provisioning again. The company is the product's (id_filial); app.vw_produtos_fiscal maps
-- it to the tenant and normalises the codes. Runs as its owner, like the views. To map
-- another ERP, change the tables and columns below (docs/erp-contract.md, "Optional: fiscal
-- data").
--
-- erp-reads-optional: public.produtos_fiscal(id_produto, ncm, cest, origem, perc_ipi, dt_alteracao)
-- erp-reads-optional: public.produtos(id_produto, id_empresa)
create or replace function app.produtos_fiscal_erp()
returns table (id_filial integer, id_produto integer, ncm text, cest text, origem integer, perc_ipi numeric,
               atualizado_em timestamp)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
begin
  if to_regclass('public.produtos_fiscal') is null then
    return;
  end if;
  return query execute
    'select p.id_empresa::integer, f.id_produto::integer, f.ncm::text, f.cest::text, f.origem::integer,
            f.perc_ipi::numeric, f.dt_alteracao::timestamp
       from public.produtos_fiscal f
       join public.produtos p on p.id_produto = f.id_produto';
end
$fn$;

comment on function app.produtos_fiscal_erp() is
  'Campo: the fiscal data the ERP keeps per product (public.produtos_fiscal), or no rows when it has none; optional in the ERP contract.';
