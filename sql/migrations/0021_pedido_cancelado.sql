-- 0021: an order the ERP cancels or deletes ends cancelled in Campo, and gives back what it
-- held (issue #50, docs/orders.md "Status", docs/credit-and-flex.md "When the ERP ends an order").
--
-- Why: an approved order whose replica the ERP cancelled stayed approved, and so among its
-- client's open orders (app.pedidos_em_aberto sums situa 1 and 2) and with its flex spent.
-- situa 5 is the end "cancelled": reached only from the ERP (the replica cancelled, or deleted
-- before it was invoiced), never by a person. It leaves the open orders by itself (the partial
-- index pedidos_cliente_abertos_idx keeps situa 1 and 2).
-- By what the checks say rather than their names: a schema app the old system made (a baseline,
-- docs/provisioning.md) may name them otherwise.
do $do$
declare
  c record;
begin
  for c in
    select t.relname, k.conname
      from pg_constraint k
      join pg_class t on t.oid = k.conrelid
      join pg_namespace n on n.oid = t.relnamespace
     where n.nspname = 'app' and t.relname in ('pedidos', 'pedido_status_historico') and k.contype = 'c'
       and pg_get_constraintdef(k.oid) ~ 'situa(_de|_para)? = ANY'
  loop
    execute format('alter table app.%I drop constraint %I', c.relname, c.conname);
  end loop;
end
$do$;
alter table app.pedidos add constraint pedidos_situa_check check (situa in (1, 2, 3, 4, 5));
alter table app.pedido_status_historico
  add constraint pedido_status_historico_situa_de_check check (situa_de in (1, 2, 3, 4, 5));
alter table app.pedido_status_historico
  add constraint pedido_status_historico_situa_para_check check (situa_para in (1, 2, 3, 4, 5));

-- The flex ledger's new move: 'estorno', a cancelled order taking back what its approval had
-- credited (never below zero: as much as the balance holds).
alter table app.flex_lancamentos drop constraint if exists flex_lancamentos_tipo_check;
alter table app.flex_lancamentos
  add constraint flex_lancamentos_tipo_check check (tipo in ('reserva', 'liberacao', 'credito', 'ajuste', 'estorno'));

-- A move's time is taken when its entry is written, under the balance's lock, not when its
-- transaction began: two orders that overlap are then in the ledger's order (newest first by
-- criado_em, then id) exactly as the balance moved, so the document an order builds (its own
-- entry first) and the one the refresh rebuilds list them alike.
alter table app.flex_lancamentos alter column criado_em set default clock_timestamp();
