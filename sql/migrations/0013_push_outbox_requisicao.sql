-- 0013: operations. The request that queued a push message, so the worker's log lines about
-- it (sent later, maybe by another process) carry the same id as the request's own line; and
-- the outbox depth across tenants for the metrics (docs/deployment.md, "Metrics").

-- the X-Request-Id of the request whose transaction wrote the row; null when none did
alter table app.push_outbox add column id_requisicao text check (id_requisicao ~ '^[A-Za-z0-9_.-]{1,64}$');

-- Messages still to send, every tenant: row-level security would show the server only one
-- tenant's rows. A count and nothing else, over the pending-rows index.
create function app.push_outbox_pendentes()
returns bigint
language sql stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
  select count(*) from app.push_outbox o where o.enviado_em is null and o.falhou_em is null
$fn$;

revoke execute on function app.push_outbox_pendentes() from public;
