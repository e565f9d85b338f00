-- 0012: the change log keeps each document as it was last written (docs/sync.md).
--
-- dados: the document's JSON text, escaped to ASCII (\uXXXX) so a LATIN1 database holds any
-- text a representative typed. A pull answers it as stored, without rebuilding documents from
-- the ERP views, and a deletion carries the last known document, so that a device which
-- validates what it pulls against the collection's schema accepts deletions too. Rows written
-- before this migration have none until the next refresh rewrites them (once: a new revision
-- each, so devices pull every document one more time after the upgrade).
alter table app.sync_alteracoes add column dados text;
