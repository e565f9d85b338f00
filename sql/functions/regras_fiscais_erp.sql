-- app.regras_fiscais_erp(): the ERP's tax rules by NCM (or an NCM prefix), origin and
-- destination state and, where the ERP distinguishes it, the client's regime; or no rows when
-- the ERP keeps none.
--
-- Why: the ICMS of an order line, and its ICMS-ST, come from the rule for the product's NCM
-- and the pair of states of the sale (docs/erp-contract.md, "Optional: fiscal data"). Optional
-- in the ERP contract: the table is looked up when the function runs, so an ERP without
-- public.regras_fiscais provisions all the same and one that gains it is read at once. The
-- reference ERP codes the regime in one letter; here it becomes Campo's word ('contribuinte',
-- 'simples', 'consumidor_final', 'nao_contribuinte'; null: any client), and a letter this file
-- does not know is passed on as it is, so that the rule matches no client rather than every
-- one (`campo provision --check` reports it). Runs as its owner, like the views.
--
-- erp-reads-optional: public.regras_fiscais(id_regra, id_empresa, ncm, uf_origem, uf_destino, regime,
--   aliq_icms, icms_st, mva, aliq_icms_st, perc_fcp, perc_fcp_st, perc_red_base, dt_alteracao)
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
  if to_regclass('public.regras_fiscais') is null then
    return;
  end if;
  return query execute
    'select r.id_regra::integer, r.id_empresa::integer, r.ncm::text, r.uf_origem::text, r.uf_destino::text,
            case btrim(r.regime)
              when ''R'' then ''contribuinte'' when ''S'' then ''simples''
              when ''C'' then ''consumidor_final'' when ''N'' then ''nao_contribuinte''
              else btrim(r.regime)::text
            end,
            r.aliq_icms::numeric, r.icms_st = ''S'', r.mva::numeric, r.aliq_icms_st::numeric, r.perc_fcp::numeric,
            r.perc_fcp_st::numeric, r.perc_red_base::numeric, r.dt_alteracao::timestamp
       from public.regras_fiscais r';
end
$fn$;

comment on function app.regras_fiscais_erp() is
  'Campo: the ERP tax rules by NCM, states and regime (public.regras_fiscais), or no rows when it has none; optional in the ERP contract.';
