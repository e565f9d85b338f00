-- 0004: row-level security on the app tables, the defence in depth behind every tenant
-- filter the server writes.
--
-- Each request of the API runs in one transaction that first sets campo.id_empresa (the
-- tenant of the verified token) and, for a representative, campo.cod_vendedor. The policies
-- below let the server's database role see and write only rows of that tenant (and of that
-- representative where rows belong to one), so a query that forgets its filter still
-- cannot reach another tenant. With no setting, the role sees nothing.
--
-- The policies bind roles that do not own the tables: the server connects with such a role
-- (granted by `campo provision --grant-to <role>`), while the owner that provisions, and the
-- operations CLI, are not restricted. app.usuarios has no policy: a login is looked up before
-- any tenant is known, and only the auth and user-management code reads it.

create function app.empresa_atual() returns integer
language sql stable parallel safe
as $fn$ select nullif(current_setting('campo.id_empresa', true), '')::integer $fn$;

create function app.vendedor_atual() returns integer
language sql stable parallel safe
as $fn$ select nullif(current_setting('campo.cod_vendedor', true), '')::integer $fn$;

comment on function app.empresa_atual() is 'Campo: tenant of the current request (setting campo.id_empresa), or null.';
comment on function app.vendedor_atual() is 'Campo: representative of the current request (campo.cod_vendedor), or null for other roles.';

-- Tenant: every app table.
alter table app.pedidos enable row level security;
alter table app.pedido_itens enable row level security;
alter table app.pedido_status_historico enable row level security;
alter table app.clientes_novos enable row level security;
alter table app.regras_desconto enable row level security;
alter table app.config_empresa enable row level security;
alter table app.chamados enable row level security;
alter table app.chamado_mensagens enable row level security;
alter table app.oportunidades enable row level security;
alter table app.push_inscricoes enable row level security;
alter table app.metas_representante enable row level security;
alter table app.limites_desconto_representante enable row level security;
alter table app.limites_credito enable row level security;

create policy empresa on app.pedidos using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy empresa on app.pedido_itens using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy empresa on app.pedido_status_historico using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy empresa on app.clientes_novos using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy empresa on app.regras_desconto using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy empresa on app.config_empresa using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy empresa on app.chamados using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy empresa on app.chamado_mensagens using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy empresa on app.oportunidades using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy empresa on app.push_inscricoes using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy empresa on app.metas_representante using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy empresa on app.limites_desconto_representante using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());
create policy empresa on app.limites_credito using (id_empresa = app.empresa_atual()) with check (id_empresa = app.empresa_atual());

-- Representative: rows that belong to one are only theirs when a representative is acting.
-- Restrictive, so they narrow the tenant policy instead of widening it.
create policy vendedor on app.pedidos as restrictive
  using (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual())
  with check (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual());
create policy vendedor on app.clientes_novos as restrictive
  using (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual())
  with check (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual());
create policy vendedor on app.chamados as restrictive
  using (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual())
  with check (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual());
create policy vendedor on app.oportunidades as restrictive
  using (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual())
  with check (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual());
create policy vendedor on app.metas_representante as restrictive
  using (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual())
  with check (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual());
create policy vendedor on app.limites_desconto_representante as restrictive
  using (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual())
  with check (app.vendedor_atual() is null or cod_vendedor = app.vendedor_atual());

-- Children of a representative's rows follow their parent (whose own policies apply inside
-- the subquery).
create policy vendedor on app.pedido_itens as restrictive
  using (app.vendedor_atual() is null
         or exists (select 1 from app.pedidos p where p.id_empresa = pedido_itens.id_empresa and p.id = pedido_itens.id_pedido))
  with check (app.vendedor_atual() is null
         or exists (select 1 from app.pedidos p where p.id_empresa = pedido_itens.id_empresa and p.id = pedido_itens.id_pedido));
create policy vendedor on app.pedido_status_historico as restrictive
  using (app.vendedor_atual() is null
         or exists (select 1 from app.pedidos p where p.id_empresa = pedido_status_historico.id_empresa and p.id = pedido_status_historico.id_pedido))
  with check (app.vendedor_atual() is null
         or exists (select 1 from app.pedidos p where p.id_empresa = pedido_status_historico.id_empresa and p.id = pedido_status_historico.id_pedido));
create policy vendedor on app.chamado_mensagens as restrictive
  using (app.vendedor_atual() is null
         or exists (select 1 from app.chamados c where c.id_empresa = chamado_mensagens.id_empresa and c.id = chamado_mensagens.id_chamado))
  with check (app.vendedor_atual() is null
         or exists (select 1 from app.chamados c where c.id_empresa = chamado_mensagens.id_empresa and c.id = chamado_mensagens.id_chamado));
