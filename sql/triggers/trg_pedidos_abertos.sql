-- trg_pedidos_abertos on app.pedidos: each client's open orders kept as one total.
--
-- Why: app.pedidos_em_aberto (the open orders a credit limit counts, the client's page and
-- document) reads app.pedidos_abertos_totais instead of summing the client's open orders
-- (issue #51: the sum grew with them). An order is open at situa 1 (pending approval) and 2
-- (approved); an order that enters, leaves or changes while open moves its client's total in
-- the same statement, so whatever reads the total after taking the credit limit's lock sees
-- every order that held the lock before, as the sum did. An approval (1 -> 2) moves nothing.
--
-- erp-reads: (none)
create or replace function app.fn_pedidos_abertos()
returns trigger
language plpgsql
-- Runs as the owner: the server's role reads the totals only through app.pedidos_em_aberto.
security definer
set search_path = pg_catalog, pg_temp
as $fn$
declare
  v_antes  boolean := tg_op <> 'INSERT' and old.situa in (1, 2);
  v_depois boolean := tg_op <> 'DELETE' and new.situa in (1, 2);
begin
  if v_antes and v_depois and old.id_empresa = new.id_empresa and old.id_cliente = new.id_cliente
     and old.valor_total = new.valor_total then
    return null;
  end if;
  if v_antes then
    update app.pedidos_abertos_totais
       set valor = valor - old.valor_total
     where id_empresa = old.id_empresa and id_cliente = old.id_cliente;
  end if;
  if v_depois then
    insert into app.pedidos_abertos_totais as t (id_empresa, id_cliente, valor)
    values (new.id_empresa, new.id_cliente, new.valor_total)
    on conflict (id_empresa, id_cliente) do update set valor = t.valor + excluded.valor;
  end if;
  return null;
end
$fn$;

comment on function app.fn_pedidos_abertos() is
  'Campo: keeps app.pedidos_abertos_totais, each client''s open (situa 1 and 2) Campo orders, in step with app.pedidos.';

-- PostgreSQL 12 and 13 have no CREATE OR REPLACE TRIGGER; provisioning runs both in one
-- transaction, so there is no moment without the trigger.
drop trigger if exists trg_pedidos_abertos on app.pedidos;
create trigger trg_pedidos_abertos
  after insert or update of situa, valor_total, id_cliente, id_empresa or delete on app.pedidos
  for each row
  execute function app.fn_pedidos_abertos();

-- Whenever this file is applied (first, after a change, or when someone dropped the trigger),
-- the totals are summed again from the orders. CREATE TRIGGER above already holds a lock that
-- keeps orders out until this transaction commits, so none slips between the sum and the
-- trigger; the explicit lock says so.
lock table app.pedidos in share row exclusive mode;
insert into app.pedidos_abertos_totais as t (id_empresa, id_cliente, valor)
select p.id_empresa, p.id_cliente, sum(p.valor_total)
  from app.pedidos p
 where p.situa in (1, 2)
 group by p.id_empresa, p.id_cliente
on conflict (id_empresa, id_cliente) do update set valor = excluded.valor where t.valor <> excluded.valor;
update app.pedidos_abertos_totais t
   set valor = 0
 where t.valor <> 0
   and not exists (select 1 from app.pedidos p
                    where p.id_empresa = t.id_empresa and p.id_cliente = t.id_cliente and p.situa in (1, 2));
