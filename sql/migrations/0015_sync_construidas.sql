-- 0015: whether a tenant's collection has been built in the change log is a recorded fact
-- (docs/sync.md, "When the log is refreshed").
--
-- The first pull of a collection builds its change log when it has never been built. It used
-- to infer that from an empty log, and a write before the first build (an order logs its
-- client's document into clientes, a funnel card, a ticket, a new client) left one or two
-- rows there: the log counted as built, and the phone's initial sync ended with a fraction of
-- the collection until the scheduled refresh. Now every full refresh of a collection records
-- (id_empresa, colecao) here in its own transaction, and the first pull builds a collection
-- with no row, whatever the log holds.
--
-- An existing database gets no rows. Which logs a refresh ever built whole cannot be told from
-- the log (that is the bug above), so nothing is marked: the first pull of each collection
-- after the upgrade builds it once, or the scheduled refresh does first. A log already whole
-- changes nothing then, and the cost is one refresh per collection and tenant.
create table app.sync_construidas (
  id_empresa    integer not null,
  colecao       text not null,
  construida_em timestamptz not null default now(),
  primary key (id_empresa, colecao)
);

comment on table app.sync_construidas is 'Campo: the (tenant, collection) change logs a full refresh has built.';

alter table app.sync_construidas enable row level security;
create policy empresa on app.sync_construidas
  using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
