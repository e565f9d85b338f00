-- app.vw_condicoes_pagamento: the payment terms (condicoes de pagamento) the ERP offers.
--
-- Why: every Brazilian B2B order carries one ('a vista', '28/35/42 dias'). The cart offers
-- the active ones (restricted per client by vw_clientes_condicoes), the client's default
-- (vw_clientes.id_condicao) pre-selected; POST /orders refuses an inactive or unknown one,
-- and trg_pedido_aprovado writes the chosen id into the ERP order. Inactive terms stay in the
-- view so that old orders still show theirs.
--
-- erp-reads: public.condicoes_pagamento(id_empresa, id_condicao, descricao, ativo)
create view app.vw_condicoes_pagamento as
select e.id_empresa,
       c.id_empresa  as id_filial,
       c.id_condicao,
       c.descricao,
       c.ativo = 'S' as ativo
  from public.condicoes_pagamento c
  join app.vw_empresas e on e.id_filial = c.id_empresa;

comment on view app.vw_condicoes_pagamento is 'Campo: payment terms (condicoes de pagamento) per tenant.';
