-- 0012: the change log keeps each document as it was last written (docs/sync.md).
--
-- dados: the document's JSON text, escaped to ASCII (\uXXXX) so a LATIN1 database holds any
-- text a representative typed. A pull answers it as stored, without rebuilding documents from
-- the ERP views, and a deletion carries the last known document, so that a device which
-- validates what it pulls against the collection's schema accepts deletions too. Rows written
-- before this migration have none until the next refresh rewrites them (once: a new revision
-- each, so devices pull every document one more time after the upgrade).
alter table app.sync_alteracoes add column dados text;

-- sync_recusas: what a device pushed and the server could not take, kept until the
-- representative fixes or discards it. A reply that reached a ticket closed meanwhile, or a
-- card edit that broke a rule, is part of the document every later pull answers (with its
-- reason), so a pull of the ticket's new state can never erase the text the representative
-- typed. item names the part refused (a message id), '' for the document as a whole.
create table app.sync_recusas (
  id_empresa   integer not null,
  colecao      text not null,
  chave        text not null,
  item         text not null default '',
  cod_vendedor integer not null,
  dados        text not null,
  criado_em    timestamptz not null default now(),
  primary key (id_empresa, colecao, chave, item)
);
alter table app.sync_recusas enable row level security;
create policy empresa on app.sync_recusas using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy vendedor on app.sync_recusas as restrictive
  using (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual())
  with check (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual());
