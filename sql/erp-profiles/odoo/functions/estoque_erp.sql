-- app.estoque_erp() (odoo profile): stock on hand from stock_quant, or no rows when the ERP
-- keeps none.
--
-- Why: stock is optional in the ERP contract (see the reference profile's file). In Odoo the
-- quantity on hand of a product is the sum of its quants in internal locations (usage
-- 'internal'); quants in customer, supplier or transit locations are not on hand. The tables
-- are looked up when the function runs, so an Odoo without the stock module provisions and
-- shows no stock. Runs as its owner, like the views.
--
-- erp-reads-optional: public.stock_quant(product_id, location_id, company_id, quantity)
-- erp-reads-optional: public.stock_location(id, usage, company_id)
create or replace function app.estoque_erp()
returns table (id_filial integer, id_produto integer, quantidade numeric)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
begin
  if to_regclass('public.stock_quant') is null or to_regclass('public.stock_location') is null then
    return;
  end if;
  return query execute
    'select coalesce(q.company_id, l.company_id)::integer, q.product_id::integer, sum(q.quantity)::numeric
       from public.stock_quant q join public.stock_location l on l.id = q.location_id
      where l.usage = ''internal'' and coalesce(q.company_id, l.company_id) is not null
      group by 1, 2';
end
$fn$;

comment on function app.estoque_erp() is
  'Campo: stock on hand from the ERP''s stock_quant in internal locations, or no rows when it has none; optional in the ERP contract.';
