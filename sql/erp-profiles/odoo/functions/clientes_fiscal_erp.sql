-- app.clientes_fiscal_erp() (odoo profile): the ICMS regime kept per client, or no rows when
-- the ERP keeps none.
--
-- Why: optional in the ERP contract (see the reference profile's file). Odoo's own fields for
-- it belong to Brazilian localisation modules this ERP does not have: this is the
-- integrator's extension table x_campo_partner_fiscal, three booleans per partner. Clients
-- only (customer_rank > 0, as app.vw_clientes reads them); the company is the partner's.
-- Looked up when the function runs; runs as its owner, like the views.
--
-- erp-reads-optional: public.x_campo_partner_fiscal(partner_id, contribuinte_icms, simples_nacional, consumidor_final)
-- erp-reads-optional: public.res_partner(id, company_id, customer_rank)
create or replace function app.clientes_fiscal_erp()
returns table (id_filial integer, id_cliente integer, contribuinte_icms boolean, simples_nacional boolean,
               consumidor_final boolean)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
begin
  if to_regclass('public.x_campo_partner_fiscal') is null then
    return;
  end if;
  return query execute
    'select p.company_id::integer, f.partner_id::integer, f.contribuinte_icms, f.simples_nacional, f.consumidor_final
       from public.x_campo_partner_fiscal f
       join public.res_partner p on p.id = f.partner_id
      where p.customer_rank > 0';
end
$fn$;

comment on function app.clientes_fiscal_erp() is
  'Campo: the ICMS regime kept per client (x_campo_partner_fiscal), or no rows when the ERP has none; optional in the ERP contract.';
