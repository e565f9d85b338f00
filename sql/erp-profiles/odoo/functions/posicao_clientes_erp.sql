-- app.posicao_clientes_erp(ids) (odoo profile): where the ERP says the clients asked for are
-- (WGS 84 degrees), or no rows when it keeps no coordinates.
--
-- Why: optional in the ERP contract (see the reference profile's file). Odoo's geolocation
-- module (base_geolocalize) keeps them on the partner as partner_latitude and
-- partner_longitude, 0 when never geocoded. Looked up when the function runs; runs as its
-- owner, like the views.
--
-- erp-reads-optional: public.res_partner(id, partner_latitude, partner_longitude)
create or replace function app.posicao_clientes_erp(p_ids integer[])
returns table (id_cliente integer, latitude double precision, longitude double precision)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
begin
  if (select count(*) from pg_catalog.pg_attribute a
       where a.attrelid = to_regclass('public.res_partner')
         and a.attname in ('partner_latitude', 'partner_longitude') and a.attnum > 0 and not a.attisdropped) < 2 then
    return;
  end if;
  return query execute
    'select c.id::integer, c.partner_latitude::double precision, c.partner_longitude::double precision
       from public.res_partner c
      where c.id = any($1)
        and c.partner_latitude between -90 and 90 and c.partner_longitude between -180 and 180
        and not (c.partner_latitude = 0 and c.partner_longitude = 0)'
    using p_ids;
end
$fn$;

comment on function app.posicao_clientes_erp(integer[]) is
  'Campo: the coordinates the ERP keeps for the clients asked for (res_partner partner_latitude, partner_longitude), or no rows when it keeps none; optional in the ERP contract.';
