-- 0007: the client of a ticket, for the company's queue.
--
-- The company filters its tickets by client (GET /ger/chamados?idCliente=...). A ticket names
-- its client only by nome_cliente, and the client of an ERP order is in vw_sitpedido, so the
-- id is copied at creation like the name (from app.pedidos or vw_sitpedido.id_corrent).
-- Ticket subjects and messages, and funnel prospect names and notes, stay text: Campo stores
-- them escaped (shared/src/text.ts, encodeLossless), so no column changes for them.
alter table app.chamados add column id_cliente integer;
create index chamados_cliente_idx on app.chamados (id_empresa, id_cliente);
