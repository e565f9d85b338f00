-- app.notas_itens_erp(ids): the lines of the invoices asked for, or no rows when the ERP
-- keeps no invoice lines.
--
-- Why: invoice lines are optional in the ERP contract, like stock. Campo upgrades against
-- the ERP an operator already has, and an ERP without public.notas_fiscais_itens (or one
-- that does not let Campo read it) must still provision: the order's page then shows its
-- invoices (app.vw_notas_pedido) without lines, and the quantity invoiced per line is
-- unknown (null, never zero). A view over a missing table cannot even be created, so the
-- table is looked up when the function runs, and an ERP that gains it later shows lines at
-- once, without provisioning again. It reads only the invoices asked for (the order's,
-- already in the caller's tenant), through the table's key, never the whole table. Runs as
-- its owner, like the views: the server's role holds no privilege on ERP tables. To map
-- another ERP, change the table and columns below (docs/erp-contract.md, "Optional:
-- invoice lines").
--
-- erp-reads-optional: public.notas_fiscais_itens(id_nota, seq, id_produto, quantidade,
--   valor_unitario, valor_total)
create or replace function app.notas_itens_erp(p_ids_nota bigint[])
returns table (id_nota integer, seq integer, id_produto integer, quantidade numeric,
               valor_unitario numeric, valor_total numeric)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
begin
  if to_regclass('public.notas_fiscais_itens') is null then
    return;
  end if;
  return query execute
    'select i.id_nota::integer, i.seq::integer, i.id_produto::integer, i.quantidade::numeric,
            i.valor_unitario::numeric, i.valor_total::numeric
       from public.notas_fiscais_itens i
      where i.id_nota = any($1)'
    using p_ids_nota;
end
$fn$;

comment on function app.notas_itens_erp(bigint[]) is
  'Campo: lines of the ERP invoices asked for (public.notas_fiscais_itens), or no rows when the ERP has none; optional in the ERP contract.';
