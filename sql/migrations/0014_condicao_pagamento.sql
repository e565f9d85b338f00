-- 0014: the payment term (condicao de pagamento) of an order.
--
-- id_condicao is the ERP's term (app.vw_condicoes_pagamento) the order was placed on, which
-- trg_pedido_aprovado writes into the ERP order; condicao_pagamento is its description copied
-- at creation, like nome_cliente, so the order, its review and its PDF show what the client
-- agreed to even if the ERP renames or retires the term later. Both null on orders placed
-- before this release.
alter table app.pedidos add column id_condicao integer;
alter table app.pedidos add column condicao_pagamento text;
