-- app.vw_supervisores (odoo profile): a supervisor is the leader of a sales team.
--
-- Why: approvals, the supervisor dashboard and the team cards are scoped by supervisor; Odoo
-- groups salespeople into sales teams (crm_team) led by a user, so cod_supervisor is the
-- team's id and the supervisor's name and email are the leader's contact (res_partner). A
-- team is active while it and its leader are.
--
-- erp-reads: public.crm_team(id, company_id, user_id, active)
-- erp-reads: public.res_users(id, partner_id, company_id, active)
-- erp-reads: public.res_partner(id, name, email)
create view app.vw_supervisores as
select e.id_empresa,
       e.id_filial,
       t.id                    as cod_supervisor,
       p.name                  as nome,
       p.email,
       t.active and u.active   as ativo
  from public.crm_team t
  join public.res_users u on u.id = t.user_id
  join public.res_partner p on p.id = u.partner_id
  join app.vw_empresas e on e.id_filial = coalesce(t.company_id, u.company_id);

comment on view app.vw_supervisores is 'Campo: supervisors per tenant (leaders of crm_team sales teams).';
