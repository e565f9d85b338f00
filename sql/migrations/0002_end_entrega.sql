-- 0002: the delivery address on orders.
--
-- Databases set up by the old system lack app.pedidos.end_entrega, and GET /orders answers
-- 500 there (spec, Errors 4). 0001 already has the column, so on a fresh install this is a
-- no-op; on a baseline it adds the column.
alter table app.pedidos add column if not exists end_entrega text;
