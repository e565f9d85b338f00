-- app.estoque_erp(): the ERP's stock on hand, or no rows when the ERP keeps none.
--
-- Why: stock is optional in the ERP contract. Not every ERP keeps it (or lets Campo read it),
-- and an order is never blocked by it: the catalog and the cart show it where it exists and
-- warn when a quantity exceeds it. A view over a missing table cannot even be created, so
-- the table is looked up when the function runs: an ERP without public.estoque provisions
-- all the same and shows no stock (absent means hidden, not zero), and one that gains the
-- table later shows it at once, without provisioning again. Runs as its owner, like the
-- views: the server's role holds no privilege on ERP tables. To map another ERP, change the
-- table and columns in the query below (docs/erp-contract.md, "Optional: stock").
--
-- erp-reads-optional: public.estoque(id_empresa, id_produto, quantidade)
create or replace function app.estoque_erp()
returns table (id_filial integer, id_produto integer, quantidade numeric)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
begin
  if to_regclass('public.estoque') is null then
    return;
  end if;
  return query execute
    'select e.id_empresa::integer, e.id_produto::integer, e.quantidade::numeric from public.estoque e';
end
$fn$;

comment on function app.estoque_erp() is
  'Campo: the ERP stock on hand (public.estoque), or no rows when the ERP has none; optional in the ERP contract.';
