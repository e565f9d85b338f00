-- 0006: what order creation needs beyond the 13 tables.
--
-- chaves_idempotencia: an order sent with an Idempotency-Key is created once, whatever the
-- retries (a phone that lost the answer, a queued order pushed again after weeks). The key is
-- scoped by tenant and user and never expires for orders. The row is written in the same
-- transaction as the order, so a crash loses both or keeps both: a key is never left
-- pointing at nothing, nor "in flight" forever. The stored answer is UTF-8 bytes (bytea):
-- the database is LATIN1 and an answer is replayed exactly as first sent.
--
-- app.proximo_num_ped_sar(id_empresa): num_ped_sar comes from a sequence per tenant,
-- app.num_ped_sar_<id_empresa>, created on the tenant's first order. A sequence is not held
-- by the transaction that takes a number, so orders of one tenant are not serialised behind
-- each other's commits (a counter row would be); the price is a gap when an order rolls
-- back. The function runs as its owner, so the server's role needs no right to create
-- objects. A tenant whose orders predate Campo's sequence starts after its highest number.
create table app.chaves_idempotencia (
  id_empresa       integer not null,
  id_usuario       bigint not null,
  chave            text not null,
  rota             text not null,
  hash_requisicao  text not null,
  status_resposta  smallint not null,
  corpo_resposta   bytea not null,
  id_pedido        bigint,
  criado_em        timestamptz not null default now(),
  primary key (id_empresa, id_usuario, chave)
);
create index chaves_idempotencia_pedido_idx on app.chaves_idempotencia (id_pedido) where id_pedido is not null;

create function app.proximo_num_ped_sar(p_empresa integer) returns integer
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $fn$
declare
  v_seq text := format('app.num_ped_sar_%s', p_empresa);
begin
  begin
    return nextval(v_seq)::integer;
  exception when undefined_table then
    null;
  end;
  begin
    execute format('create sequence %s start with %s', v_seq,
                   (select coalesce(max(num_ped_sar), 0) + 1 from app.pedidos where id_empresa = p_empresa));
  exception when duplicate_table or unique_violation then
    -- Another order of the same tenant created it first.
    null;
  end;
  return nextval(v_seq)::integer;
end
$fn$;

alter table app.chaves_idempotencia enable row level security;
create policy empresa on app.chaves_idempotencia
  using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
