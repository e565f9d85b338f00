-- app.posicao_clientes_erp(ids): where the ERP says the clients asked for are (WGS 84 degrees),
-- or no rows when the ERP keeps no coordinates.
--
-- Why: a visit's distance to its client (was the representative there?) needs the client's
-- position. An ERP that geocodes its clients keeps it on the client's record; most do not, and
-- then the position comes from a first check-in that a supervisor confirms (app.clientes_posicao,
-- docs/visits.md). The columns are optional in the ERP contract: they are looked up when the
-- function runs, so an ERP without them provisions, and one that adds them is read at once.
-- Only the clients asked for, through the table's key; a client without both coordinates, or
-- with ones outside the globe, has no row. Runs as its owner, like the views. To map another
-- ERP, change the table and columns below (docs/erp-contract.md, "Optional: visit days and
-- positions").
--
-- erp-reads-optional: public.corrent(id_corrent, latitude, longitude)
create or replace function app.posicao_clientes_erp(p_ids integer[])
returns table (id_cliente integer, latitude double precision, longitude double precision)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
begin
  if (select count(*) from pg_catalog.pg_attribute a
       where a.attrelid = to_regclass('public.corrent')
         and a.attname in ('latitude', 'longitude') and a.attnum > 0 and not a.attisdropped) < 2 then
    return;
  end if;
  return query execute
    'select c.id_corrent::integer, c.latitude::double precision, c.longitude::double precision
       from public.corrent c
      where c.id_corrent = any($1)
        and c.latitude between -90 and 90 and c.longitude between -180 and 180
        and not (c.latitude = 0 and c.longitude = 0)'
    using p_ids;
end
$fn$;

comment on function app.posicao_clientes_erp(integer[]) is
  'Campo: the coordinates the ERP keeps for the clients asked for (public.corrent latitude, longitude), or no rows when it keeps none; optional in the ERP contract.';
