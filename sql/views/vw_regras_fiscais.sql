-- app.vw_regras_fiscais: the ERP's tax rules, per tenant, where the ERP keeps them.
--
-- Why: the ICMS of an order line, and its ICMS-ST and FCP, come from the rule for the
-- product's NCM (app.vw_produtos_fiscal), the sale's origin state (the company's,
-- vw_empresas.uf) and destination state (the client's, vw_clientes.uf) and, where the ERP
-- distinguishes it, the client's regime (app.vw_clientes_fiscal.regime). Optional in the ERP
-- contract: it reads the ERP through app.regras_fiscais_erp(), which returns no rows when the
-- ERP keeps no rules, and a line without a rule is priced without taxes. Normalised for every
-- ERP: ncm keeps its digits only and is a prefix of 2 to 8 digits (null: every NCM); the
-- states are upper-case and trimmed; regime null means any client; a rate the ERP leaves empty
-- for FCP, FCP-ST or the base reduction is 0, icms_st empty is false. Which rule applies (the
-- longest NCM prefix, then a rule naming the regime over one that does not) is the
-- calculation's choice, in docs/erp-contract.md. Rates are percents; mva is the original MVA
-- (the calculation adjusts it for interstate sales); aliq_icms_destino the destination's
-- internal rate, for the ST. Bad rules (a negative rate, an MVA over 1,000 %, two rules for the
-- same NCM, states and regime) are shown as they are: `campo provision --check` reports them.
--
-- erp-reads: (none)
create view app.vw_regras_fiscais as
select f.id_regra,
       e.id_empresa,
       f.id_filial,
       nullif(regexp_replace(f.ncm, '[^0-9]', '', 'g'), '') as ncm,
       nullif(upper(btrim(f.uf_origem)), '')                as uf_origem,
       nullif(upper(btrim(f.uf_destino)), '')               as uf_destino,
       nullif(btrim(f.regime), '')                          as regime,
       f.aliq_icms,
       coalesce(f.icms_st, false)                           as icms_st,
       f.mva,
       f.aliq_icms_destino,
       coalesce(f.perc_fcp, 0)                              as perc_fcp,
       coalesce(f.perc_fcp_st, 0)                           as perc_fcp_st,
       coalesce(f.perc_reducao_base, 0)                     as perc_reducao_base,
       f.atualizado_em
  from app.regras_fiscais_erp() f
  join app.vw_empresas e on e.id_filial = f.id_filial;

comment on view app.vw_regras_fiscais is 'Campo: ERP tax rules by NCM, states and regime; empty when the ERP keeps none.';
