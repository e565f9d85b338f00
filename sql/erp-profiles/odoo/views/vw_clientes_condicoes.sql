-- app.vw_clientes_condicoes (odoo profile): the payment terms a client is restricted to.
--
-- Why: a client with rows here may use only those terms, one without any every active term.
-- Odoo has one default term per client and no list of allowed ones: the integrator's
-- extension table x_campo_partner_payment_term holds it.
--
-- erp-reads: public.x_campo_partner_payment_term(partner_id, payment_term_id)
-- erp-reads: public.account_payment_term(id, company_id)
create view app.vw_clientes_condicoes as
select e.id_empresa,
       x.partner_id      as id_cliente,
       x.payment_term_id as id_condicao
  from public.x_campo_partner_payment_term x
  join public.account_payment_term t on t.id = x.payment_term_id
  join app.vw_empresas e on e.id_filial = t.company_id;

comment on view app.vw_clientes_condicoes is 'Campo: payment terms a client is restricted to (none: every active term).';
