-- app.vw_clientes_fiscal: the ICMS regime of each client, per tenant, where the ERP keeps it.
--
-- Why: which tax rule applies to a sale, and whether ICMS-ST is charged on it, depends on who
-- buys; the client page says it. Optional in the ERP contract: it reads the ERP through
-- app.clientes_fiscal_erp(), which returns no rows when the ERP keeps no regime. The state
-- of the client is vw_clientes.uf. A client that is no ICMS contributor always buys as a
-- final consumer (consumidor_final true whatever the ERP says). regime is the one word a tax
-- rule (app.vw_regras_fiscais.regime) is keyed by:
--   * 'nao_contribuinte' for a client that is no ICMS contributor;
--   * 'consumidor_final' for a contributor buying for its own use;
--   * 'simples' for a contributor under Simples Nacional buying for resale;
--   * 'contribuinte' for any other contributor buying for resale;
--   * null when the ERP does not say whether the client is a contributor.
--
-- erp-reads: (none)
create view app.vw_clientes_fiscal as
select e.id_empresa,
       f.id_filial,
       f.id_cliente,
       f.contribuinte_icms,
       f.simples_nacional,
       f.consumidor_final or not f.contribuinte_icms as consumidor_final,
       case
         when f.contribuinte_icms is null then null
         when not f.contribuinte_icms then 'nao_contribuinte'
         when f.consumidor_final then 'consumidor_final'
         when f.simples_nacional then 'simples'
         else 'contribuinte'
       end                                           as regime
  from app.clientes_fiscal_erp() f
  join app.vw_empresas e on e.id_filial = f.id_filial;

comment on view app.vw_clientes_fiscal is 'Campo: ICMS regime per client; empty when the ERP keeps none.';
