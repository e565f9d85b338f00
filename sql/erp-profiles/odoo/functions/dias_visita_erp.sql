-- app.dias_visita_erp(ids) (odoo profile): the visit days kept for the clients asked for, or
-- no rows when the ERP keeps none.
--
-- Why: optional in the ERP contract (see the reference profile's file). Odoo has no visit
-- route: this is the integrator's extension table x_campo_visita (ISO weekday, every
-- intervalo_semanas weeks from data_base). Looked up when the function runs; runs as its
-- owner, like the views.
--
-- erp-reads-optional: public.x_campo_visita(partner_id, dia_semana, intervalo_semanas, data_base)
create or replace function app.dias_visita_erp(p_ids integer[])
returns table (id_cliente integer, dia_semana integer, intervalo_semanas integer, data_base date)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
begin
  if to_regclass('public.x_campo_visita') is null then
    return;
  end if;
  return query execute
    'select v.partner_id::integer, v.dia_semana::integer, greatest(coalesce(v.intervalo_semanas, 1), 1)::integer,
            v.data_base::date
       from public.x_campo_visita v
      where v.partner_id = any($1) and v.dia_semana between 1 and 7'
    using p_ids;
end
$fn$;

comment on function app.dias_visita_erp(integer[]) is
  'Campo: the visit days the ERP keeps for the clients asked for (x_campo_visita), or no rows when it has none; optional in the ERP contract.';
