-- app.regras_fiscais_erp() (odoo profile): the tax rules by NCM prefix, states and client
-- regime, or no rows when the ERP keeps none.
--
-- Why: optional in the ERP contract (see the reference profile's file). Odoo keeps no tax
-- rule of this kind in its database (its Brazilian localisation computes taxes through an
-- external service): this is the integrator's extension table x_campo_regra_fiscal, the states
-- as res_country_state ids, the regime as a selection ('resale', 'simples', 'final_consumer',
-- 'non_contributor', null for any) that becomes Campo's word here; a value this file does
-- not know is passed on as it is, so the rule matches no client (`campo provision --check`
-- reports it). Looked up when the function runs; runs as its owner, like the views.
--
-- erp-reads-optional: public.x_campo_regra_fiscal(id, company_id, ncm, state_from_id, state_to_id, regime,
--   icms_percent, icms_st, mva_percent, icms_st_percent, fcp_percent, fcp_st_percent,
--   base_reduction_percent, write_date)
-- erp-reads-optional: public.res_country_state(id, code)
create or replace function app.regras_fiscais_erp()
returns table (id_regra integer, id_filial integer, ncm text, uf_origem text, uf_destino text, regime text,
               aliq_icms numeric, icms_st boolean, mva numeric, aliq_icms_destino numeric, perc_fcp numeric,
               perc_fcp_st numeric, perc_reducao_base numeric, atualizado_em timestamp)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
begin
  if to_regclass('public.x_campo_regra_fiscal') is null then
    return;
  end if;
  return query execute
    'select r.id::integer, r.company_id::integer, r.ncm::text, o.code::text, d.code::text,
            case r.regime
              when ''resale'' then ''contribuinte'' when ''simples'' then ''simples''
              when ''final_consumer'' then ''consumidor_final'' when ''non_contributor'' then ''nao_contribuinte''
              else r.regime::text
            end,
            r.icms_percent::numeric, r.icms_st, r.mva_percent::numeric, r.icms_st_percent::numeric,
            r.fcp_percent::numeric, r.fcp_st_percent::numeric, r.base_reduction_percent::numeric,
            r.write_date::timestamp
       from public.x_campo_regra_fiscal r
       left join public.res_country_state o on o.id = r.state_from_id
       left join public.res_country_state d on d.id = r.state_to_id';
end
$fn$;

comment on function app.regras_fiscais_erp() is
  'Campo: the tax rules kept by NCM, states and regime (x_campo_regra_fiscal), or no rows when the ERP has none; optional in the ERP contract.';
