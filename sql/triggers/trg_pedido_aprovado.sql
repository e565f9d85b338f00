-- trg_pedido_aprovado on app.pedidos: an approved order enters the ERP.
--
-- Why: the spec's replication rule. When an order's situa moves from 1 (pending_approval)
-- to 2 (approved), the order and its lines are written into the ERP's order tables in the
-- same transaction as the approval, and the ERP's id is stored in erp_id_pedido. If any
-- ERP insert fails (unknown product, a check of the ERP, a lock timeout), the exception
-- aborts the UPDATE, so the order stays pending and the approver sees the error: an order
-- is never approved without its ERP copy, nor copied twice (erp_id_pedido already set
-- means replicated).
--
-- ERP rules this trigger follows (the adapter: change them here for another ERP):
--   * the ERP company of the order is the one the representative is registered in,
--     within the tenant (head office or one of its branches), so that the ERP's foreign
--     key (id_empresa, cod_vendedor) holds;
--   * num_pedido is the next number of that company, max + 1 under a transaction-scoped
--     advisory lock (key 1128353104 = 'CAMP', company id), so two approvals cannot take
--     the same number; an ERP that numbers orders from a counter table would read it here;
--   * dt_emissao is when the client placed the order (app.pedidos.criado_em);
--   * origem 'CAMPO' and num_ped_sar mark the replica; situacao starts 'A' (open);
--   * id_condicao is the payment term the order was placed on (null on orders placed before
--     Campo knew terms: the ERP then applies the client's own);
--   * every text goes through app.texto_erp, cut to the ERP column's own width.
--
-- erp-reads: public.empresas(id_empresa, id_matriz)
-- erp-reads: public.vendedores(id_empresa, cod_vendedor)
-- erp-writes: public.pedidos_venda(id_pedido, id_empresa, num_pedido, id_corrent,
--   cod_vendedor, id_pauta, dt_emissao, situacao, valor_total, end_entrega, observacao,
--   origem, num_ped_sar, id_condicao)
-- erp-writes: public.pedidos_venda_itens(id_pedido, seq, id_produto, quantidade,
--   preco_tabela, preco_unitario, perc_desconto, valor_total)
create or replace function app.fn_pedido_aprovado()
returns trigger
language plpgsql
-- Runs as the owner that provisioned it: the server's role writes the ERP only through
-- this trigger and holds no privilege on the ERP tables itself.
security definer
set search_path = pg_catalog, pg_temp
as $fn$
declare
  v_empresa_erp integer;
  v_num_pedido  integer;
  v_id_pedido   integer;
begin
  if new.erp_id_pedido is not null then
    return new;
  end if;

  if not exists (select 1 from app.pedido_itens i where i.id_pedido = new.id) then
    raise exception 'order % (num_ped_sar %) has no items and cannot be approved', new.id, new.num_ped_sar
      using errcode = 'check_violation';
  end if;

  -- The head office first when the rep is registered in several companies of the tenant.
  select v.id_empresa
    into v_empresa_erp
    from public.vendedores v
    join public.empresas e on e.id_empresa = v.id_empresa
   where v.cod_vendedor = new.cod_vendedor
     and coalesce(e.id_matriz, e.id_empresa) = new.id_empresa
   order by v.id_empresa <> new.id_empresa, v.id_empresa
   limit 1;
  if v_empresa_erp is null then
    raise exception 'order %: representative % is not registered in the ERP for company %',
      new.id, new.cod_vendedor, new.id_empresa
      using errcode = 'foreign_key_violation';
  end if;

  perform pg_advisory_xact_lock(1128353104, v_empresa_erp);
  select coalesce(max(pv.num_pedido), 0) + 1
    into v_num_pedido
    from public.pedidos_venda pv
   where pv.id_empresa = v_empresa_erp;

  insert into public.pedidos_venda
         (id_empresa, num_pedido, id_corrent, cod_vendedor, id_pauta, dt_emissao, situacao,
          valor_total, end_entrega, observacao, origem, num_ped_sar, id_condicao)
  values (v_empresa_erp, v_num_pedido, new.id_cliente, new.cod_vendedor, new.id_pauta,
          new.criado_em, 'A', new.valor_total,
          nullif(app.texto_erp(new.end_entrega, app.largura_coluna_erp('public.pedidos_venda', 'end_entrega')), ''),
          nullif(app.texto_erp(new.observacao, app.largura_coluna_erp('public.pedidos_venda', 'observacao')), ''),
          'CAMPO', new.num_ped_sar, new.id_condicao)
  returning id_pedido into v_id_pedido;

  insert into public.pedidos_venda_itens
         (id_pedido, seq, id_produto, quantidade, preco_tabela, preco_unitario, perc_desconto, valor_total)
  select v_id_pedido, i.seq, i.id_produto, i.quantidade, i.preco_tabela, i.preco_unitario,
         i.perc_desconto, i.valor_total
    from app.pedido_itens i
   where i.id_pedido = new.id
   order by i.seq;

  new.erp_id_pedido := v_id_pedido;
  return new;
end
$fn$;

comment on function app.fn_pedido_aprovado() is
  'Campo: on approval (situa 1 -> 2) writes the order and its lines into pedidos_venda / pedidos_venda_itens.';

-- PostgreSQL 12 and 13 have no CREATE OR REPLACE TRIGGER; provisioning runs both in one
-- transaction, so there is no moment without the trigger.
drop trigger if exists trg_pedido_aprovado on app.pedidos;
create trigger trg_pedido_aprovado
  before update of situa on app.pedidos
  for each row
  when (old.situa = 1 and new.situa = 2)
  execute function app.fn_pedido_aprovado();
