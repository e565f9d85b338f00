-- 0008: the replication change log (docs/sync.md).
--
-- ERP rows carry no reliable change timestamps, so Campo keeps, per tenant and collection,
-- one row per document key with the md5 of the document's JSON as last built, and a
-- revision taken from app.sync_revisao whenever the hash changes or the key disappears
-- (excluido). Devices pull "everything after revision N" (RxDB checkpoint iteration), and a
-- key gone from the ERP reaches them as a tombstone.
--
-- escopo is the representative (cod_vendedor) a document belongs to, null for the whole
-- tenant. A representative reads only rows of their scope; the restrictive policy below is
-- the second line of defence behind the filter the server writes.
--
-- One sequence for every tenant: revisions only need to grow. Refreshes of one tenant are
-- serialised by an advisory lock (server/src/sync/changelog.ts), so a pull never sees a
-- revision committed before a lower one of the same tenant. The server's role gets usage of
-- the sequence from `campo provision --grant-to` (all sequences of schema app).
create sequence app.sync_revisao;

create table app.sync_alteracoes (
  id_empresa     integer not null,
  colecao        text not null,
  chave          text not null,
  escopo         integer,
  hash           text not null,
  revisao        bigint not null,
  excluido       boolean not null default false,
  atualizado_em  timestamptz not null default now(),
  primary key (id_empresa, colecao, chave)
);
create index sync_alteracoes_revisao_idx on app.sync_alteracoes (id_empresa, colecao, revisao);

comment on table app.sync_alteracoes is 'Campo: replication change log, one row per document key with its hash and latest revision.';

alter table app.sync_alteracoes enable row level security;
create policy empresa on app.sync_alteracoes
  using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy vendedor on app.sync_alteracoes as restrictive
  using (app.vendedor_atual() is null or escopo is null or escopo = app.vendedor_atual())
  with check (app.vendedor_atual() is null or escopo is null or escopo = app.vendedor_atual());
