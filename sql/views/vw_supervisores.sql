-- app.vw_supervisores: the supervisors of each tenant.
--
-- Why: approvals, the supervisor dashboard and the team cards are scoped by supervisor;
-- the JWT of a supervisor carries cod_supervisor.
--
-- erp-reads: public.supervisores(id_empresa, cod_supervisor, nome, email, ativo)
create view app.vw_supervisores as
select e.id_empresa,
       s.id_empresa  as id_filial,
       s.cod_supervisor,
       s.nome,
       s.email,
       s.ativo = 'S' as ativo
  from public.supervisores s
  join app.vw_empresas e on e.id_filial = s.id_empresa;

comment on view app.vw_supervisores is 'Campo: supervisors per tenant.';
