-- app.dias_visita_erp(ids): the visit days the ERP keeps for the clients asked for, or no rows
-- when the ERP keeps none.
--
-- Why: a representative's route of the day (roteiro) comes from the days each client of the
-- portfolio is visited. Many ERPs keep them (a weekday, or every N weeks from a date); many do
-- not, and then Campo's supervisors plan them (app.roteiro_plano). Like invoice lines and
-- stock, the table is optional in the ERP contract: an ERP without public.corrent_visitas (or
-- one that does not let Campo read it) must still provision, so the table is looked up when the
-- function runs, and an ERP that gains it later is read at once. It reads only the clients asked
-- for (a portfolio, already in the caller's tenant), through the table's key. Runs as its owner,
-- like the views: the server's role holds no privilege on ERP tables. To map another ERP, change
-- the table and columns below (docs/erp-contract.md, "Optional: visit days and positions").
-- dia_semana is ISO: 1 Monday to 7 Sunday; intervalo_semanas 1 is every week, and N > 1 every
-- N weeks counted from the week of data_base (every week when data_base is null).
--
-- erp-reads-optional: public.corrent_visitas(id_corrent, dia_semana, intervalo_semanas,
--   data_base)
create or replace function app.dias_visita_erp(p_ids integer[])
returns table (id_cliente integer, dia_semana integer, intervalo_semanas integer, data_base date)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
begin
  if to_regclass('public.corrent_visitas') is null then
    return;
  end if;
  return query execute
    'select v.id_corrent::integer, v.dia_semana::integer, greatest(coalesce(v.intervalo_semanas, 1), 1)::integer,
            v.data_base::date
       from public.corrent_visitas v
      where v.id_corrent = any($1) and v.dia_semana between 1 and 7'
    using p_ids;
end
$fn$;

comment on function app.dias_visita_erp(integer[]) is
  'Campo: the visit days the ERP keeps for the clients asked for (public.corrent_visitas), or no rows when the ERP has none; optional in the ERP contract.';
