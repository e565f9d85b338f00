-- app.vw_empresas (odoo profile): every company of res_company, mapped to its tenant.
--
-- Why: as in the reference profile, the tenant (id_empresa) is the head office, a company
-- without parent_id; a branch points to it through parent_id (one level). The CNPJ (vat)
-- and CEP (zip) are typed with punctuation in Odoo: digits only here, as the API expects.
-- The state is a row of res_country_state: its code is the UF. Odoo keeps no trade name for
-- a company: x_nome_fantasia is the integrator's extension, the legal name when empty.
--
-- erp-reads: public.res_company(id, parent_id, name, x_nome_fantasia, vat, company_registry,
--   street, city, state_id, zip, phone, active)
-- erp-reads: public.res_country_state(id, code)
create view app.vw_empresas as
select coalesce(c.parent_id, c.id)                               as id_empresa,
       c.id                                                      as id_filial,
       c.parent_id is null                                       as matriz,
       c.name                                      as razao_social,
       coalesce(nullif(btrim(c.x_nome_fantasia), ''), c.name) as nome_fantasia,
       nullif(regexp_replace(c.vat, '[^0-9A-Za-z]', '', 'g'), '') as cnpj,
       c.company_registry                           as inscricao_estadual,
       c.street                                    as endereco,
       c.city                                       as cidade,
       st.code                                           as uf,
       nullif(regexp_replace(c.zip, '[^0-9]', '', 'g'), '') as cep,
       c.phone                                      as telefone,
       c.active                                                  as ativo
  from public.res_company c
  left join public.res_country_state st on st.id = c.state_id;

comment on view app.vw_empresas is 'Campo: ERP companies (res_company); id_empresa is the tenant (head office), id_filial the company itself.';
