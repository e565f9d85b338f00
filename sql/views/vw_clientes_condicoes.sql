-- app.vw_clientes_condicoes: the payment terms a client is restricted to.
--
-- Why: the credit department may let a client buy only on some terms (a late payer in cash
-- or on a short term). A client with rows here may use only those; a client without any may
-- use every active term of vw_condicoes_pagamento. The cart offers only what this allows and
-- POST /orders refuses anything else (PAYMENT_TERM_NOT_ALLOWED).
--
-- erp-reads: public.corrent_condicoes(id_corrent, id_empresa, id_condicao)
create view app.vw_clientes_condicoes as
select e.id_empresa,
       cc.id_corrent as id_cliente,
       cc.id_condicao
  from public.corrent_condicoes cc
  join app.vw_empresas e on e.id_filial = cc.id_empresa;

comment on view app.vw_clientes_condicoes is 'Campo: payment terms a client is restricted to (none: every active term).';
