-- app.notas_itens_erp(ids) (odoo profile): the product lines of the invoices asked for.
--
-- Why: invoice lines are optional in the ERP contract (see the reference profile's file). In
-- Odoo they are the journal items of the invoice (account_move_line) with display_type
-- 'product'; the receivable instalments of the same invoice share the table and are left out.
-- seq is the line's position in the invoice. Reads only the invoices asked for. Runs as its
-- owner, like the views.
--
-- erp-reads-optional: public.account_move_line(id, move_id, display_type, product_id,
--   quantity, price_unit, price_subtotal)
create or replace function app.notas_itens_erp(p_ids_nota bigint[])
returns table (id_nota integer, seq integer, id_produto integer, quantidade numeric,
               valor_unitario numeric, valor_total numeric)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
begin
  if to_regclass('public.account_move_line') is null then
    return;
  end if;
  return query execute
    'select l.move_id::integer, (row_number() over (partition by l.move_id order by l.id))::integer,
            l.product_id::integer, l.quantity::numeric, l.price_unit::numeric, l.price_subtotal::numeric
       from public.account_move_line l
      where l.move_id = any($1) and l.display_type = ''product'' and l.product_id is not null'
    using p_ids_nota;
end
$fn$;

comment on function app.notas_itens_erp(bigint[]) is
  'Campo: product lines (account_move_line) of the ERP invoices asked for, or no rows when it has none; optional in the ERP contract.';
