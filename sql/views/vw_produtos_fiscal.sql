-- app.vw_produtos_fiscal: the fiscal data of each product, per tenant, where the ERP keeps it.
--
-- Why: the taxes of an order line (IPI from the product's rate; ICMS and ICMS-ST from the tax
-- rule of its NCM, app.vw_regras_fiscais) start here. Optional in the ERP contract: it reads
-- the ERP through app.produtos_fiscal_erp(), which returns no rows when the ERP keeps no
-- fiscal data, so a product without a row here has unknown taxes and is priced without them.
-- The codes are normalised for every ERP: ncm and cest keep their digits only ('2201.10.00'
-- becomes '22011000'), blank as null. origem is the NF-e's orig (0 to 8; 1, 2, 3 and 8 are
-- imported goods), perc_ipi a percent.
--
-- erp-reads: (none)
create view app.vw_produtos_fiscal as
select e.id_empresa,
       f.id_filial,
       f.id_produto,
       nullif(regexp_replace(f.ncm, '[^0-9]', '', 'g'), '')  as ncm,
       nullif(regexp_replace(f.cest, '[^0-9]', '', 'g'), '') as cest,
       f.origem,
       f.perc_ipi,
       f.atualizado_em
  from app.produtos_fiscal_erp() f
  join app.vw_empresas e on e.id_filial = f.id_filial;

comment on view app.vw_produtos_fiscal is 'Campo: NCM, CEST, origin and IPI rate per product; empty when the ERP keeps no fiscal data.';
