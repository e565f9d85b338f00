-- app.pedidos_em_aberto(id_empresa, id_cliente): the client's Campo orders accepted and not
-- yet invoiced (pending approval and approved, situa 1 and 2), by their total.
--
-- Why: the client's available credit counts them besides its open titles, whoever placed them
-- (docs/credit-and-flex.md). A representative's row-level security shows them their own
-- orders only, so the sum runs as the function's owner, like the views: vw_clientes reads it
-- for the client's page and its portfolio document, and an order reads it when it moves its
-- client's document (clients/portfolio-documents.ts). It names its tenant itself. One row:
-- trg_pedidos_abertos keeps the total as orders come and go (issue #51: summing the orders
-- cost more the more a client had open).
create or replace function app.pedidos_em_aberto(p_id_empresa integer, p_id_cliente integer)
returns numeric
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
  select coalesce((select t.valor
                     from app.pedidos_abertos_totais t
                    where t.id_empresa = p_id_empresa and t.id_cliente = p_id_cliente), 0)::numeric(14, 2)
$fn$;

comment on function app.pedidos_em_aberto(integer, integer) is
  'Campo: the total of a client''s Campo orders pending approval or approved, for its available credit.';
