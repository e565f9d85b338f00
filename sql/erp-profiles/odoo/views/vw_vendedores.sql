-- app.vw_vendedores (odoo profile): the salespeople of each tenant, with their sales team
-- (supervisor), default discount ceiling and commission rates.
--
-- Why: a representative is an Odoo user who is a member of a sales team (crm_team_member);
-- cod_vendedor is the user's id, which is what sale_order.user_id and res_partner.user_id
-- (the client's salesperson) hold. Name, email and phone are on the user's contact. Odoo has
-- no discount ceiling nor commission rates: they are the integrator's extension
-- x_campo_vendedor (no row: no ceiling, no commission). Campo's own default ceiling
-- (app.limites_desconto_representante) wins over the ERP's, as in the reference profile.
--
-- erp-reads: public.res_users(id, partner_id, company_id, active)
-- erp-reads: public.res_partner(id, name, email, phone)
-- erp-reads: public.crm_team_member(crm_team_id, user_id, active)
-- erp-reads: public.crm_team(id, user_id)
-- erp-reads: public.x_campo_vendedor(user_id, perc_desc_max, perc_comissao, perc_comissao_flex)
create view app.vw_vendedores as
select e.id_empresa,
       e.id_filial,
       u.id                                        as cod_vendedor,
       p.name                                      as nome,
       p.email,
       p.phone                                     as telefone,
       m.crm_team_id                               as cod_supervisor,
       lp.name                                     as nome_supervisor,
       coalesce(l.perc_desc_max, x.perc_desc_max)  as perc_desc_max,
       x.perc_desc_max                             as perc_desc_max_erp,
       coalesce(x.perc_comissao, 0)::numeric(5, 2) as perc_comissao,
       coalesce(x.perc_comissao_flex, 0)::numeric(5, 2) as perc_comissao_flex,
       u.active                                    as ativo
  from public.res_users u
  join public.res_partner p on p.id = u.partner_id
  -- A salesperson in several teams counts in the lowest one.
  join lateral (select min(tm.crm_team_id) as crm_team_id from public.crm_team_member tm
                 where tm.user_id = u.id and tm.active) m on m.crm_team_id is not null
  join app.vw_empresas e on e.id_filial = u.company_id
  left join public.crm_team t on t.id = m.crm_team_id
  left join public.res_users lu on lu.id = t.user_id
  left join public.res_partner lp on lp.id = lu.partner_id
  left join public.x_campo_vendedor x on x.user_id = u.id
  left join app.limites_desconto_representante l
         on l.id_empresa = e.id_empresa and l.cod_vendedor = u.id and l.categoria is null;

comment on view app.vw_vendedores is 'Campo: salespeople (res_users in a crm_team) per tenant with team, default ceiling and commission rates.';
