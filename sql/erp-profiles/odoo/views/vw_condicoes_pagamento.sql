-- app.vw_condicoes_pagamento (odoo profile): the payment terms (account_payment_term).
--
-- Why: every order carries one; the cart offers the active ones, the client's default
-- pre-selected, and trg_pedido_aprovado writes the chosen one into sale_order. Inactive terms
-- stay so that old orders still show theirs.
--
-- erp-reads: public.account_payment_term(id, name, company_id, active)
create view app.vw_condicoes_pagamento as
select e.id_empresa,
       e.id_filial,
       t.id     as id_condicao,
       t.name   as descricao,
       t.active as ativo
  from public.account_payment_term t
  join app.vw_empresas e on e.id_filial = t.company_id;

comment on view app.vw_condicoes_pagamento is 'Campo: payment terms (account_payment_term) per tenant.';
