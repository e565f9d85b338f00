-- 0022: each client's open Campo orders kept as one total (issue #51, docs/benchmarks.md
-- "Issue #51").
--
-- Why: an order for a client with a credit limit summed the client's open orders (situa 1 and
-- 2) under the limit's lock, and the client's page and document summed them again: about two
-- buffers per open order, so an order cost 47 % more at 100 open orders per client than at
-- none, in the ERP's database, at the evening's sync. The total is now kept by
-- trg_pedidos_abertos on app.pedidos, in the same transaction as the order that moves it, and
-- app.pedidos_em_aberto reads one row. An order for the client updates the row and holds its
-- lock until it commits: orders for one client were already serialised by the credit limit's
-- lock when it has one, and otherwise wait for each other only that long.
create table app.pedidos_abertos_totais (
  id_empresa integer not null,
  id_cliente integer not null,
  valor      numeric(14, 2) not null default 0,
  primary key (id_empresa, id_cliente)
);

comment on table app.pedidos_abertos_totais is
  'Campo: per client, the total of its Campo orders pending approval or approved (kept by trg_pedidos_abertos).';

alter table app.pedidos_abertos_totais enable row level security;
create policy empresa on app.pedidos_abertos_totais
  using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());

-- Filled by sql/triggers/trg_pedidos_abertos.sql when it is applied, in the transaction that
-- creates the trigger: no order can slip between the sum and the trigger.
