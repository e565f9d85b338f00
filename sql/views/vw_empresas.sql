-- app.vw_empresas: every ERP company, mapped to its tenant.
--
-- Why: Campo's tenant (id_empresa on every app table and every view) is the head office.
-- The ERP also keeps branches (filiais) whose rows carry their own company id; every other
-- view joins here to turn the ERP's company id (id_filial) into the tenant (id_empresa).
-- Tenants are the rows with matriz = true. Assumes one level: a branch points straight to
-- its head office. The char(n) columns (cnpj, uf, cep) are trimmed, blank as null, so the
-- ERP's padding never reaches the API.
--
-- erp-reads: public.empresas(id_empresa, id_matriz, razao_social, nome_fantasia, cnpj,
--   inscricao_estadual, endereco, cidade, uf, cep, telefone, ativo)
create view app.vw_empresas as
select coalesce(e.id_matriz, e.id_empresa) as id_empresa,
       e.id_empresa                         as id_filial,
       e.id_matriz is null                  as matriz,
       e.razao_social,
       e.nome_fantasia,
       nullif(btrim(e.cnpj), '')            as cnpj,
       e.inscricao_estadual,
       e.endereco,
       e.cidade,
       nullif(btrim(e.uf), '')              as uf,
       nullif(btrim(e.cep), '')             as cep,
       e.telefone,
       e.ativo = 'S'                        as ativo
  from public.empresas e;

comment on view app.vw_empresas is 'Campo: ERP companies; id_empresa is the tenant (head office), id_filial the company itself.';
