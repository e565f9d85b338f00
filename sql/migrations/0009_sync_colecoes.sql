-- 0009: replication of every collection a device holds (docs/sync.md).
--
-- documento: the id the device knows the document by. A client's key carries its portfolio
-- (id@cod_vendedor) while the device knows the client by its id; an order's key is its
-- Idempotency-Key. A tombstone names documento, so a deletion reaches the right row.
--
-- xid: the transaction that wrote the revision (txid_current()). Revisions are taken by
-- concurrent transactions (orders, funnel edits, refreshes), which commit in any order, so a
-- pull that answered revision 11 could later miss a revision 10 committed after it. A pull
-- therefore reads only rows written by transactions older than every Campo transaction still
-- in progress (server/src/sync/queries.ts), in (xid, revisao) order, and its checkpoint is
-- that pair: whatever commits later has a greater xid than anything already answered.
-- txid_current() exists on every supported PostgreSQL (12 to 18).
alter table app.sync_alteracoes add column documento text;
alter table app.sync_alteracoes add column xid bigint;
update app.sync_alteracoes set documento = split_part(chave, '@', 1), xid = 0;
alter table app.sync_alteracoes alter column documento set not null;
alter table app.sync_alteracoes alter column xid set not null;
alter table app.sync_alteracoes alter column xid set default txid_current();
drop index app.sync_alteracoes_revisao_idx;
create index sync_alteracoes_xid_idx on app.sync_alteracoes (id_empresa, colecao, xid, revisao);

-- Tickets and messages written offline carry the device's id, so a push sent twice opens one
-- ticket and appends one message.
alter table app.chamados add column chave text;
create unique index chamados_chave_key on app.chamados (id_empresa, chave) where chave is not null;
alter table app.chamado_mensagens add column chave text;
create unique index chamado_mensagens_chave_key on app.chamado_mensagens (id_empresa, chave) where chave is not null;
