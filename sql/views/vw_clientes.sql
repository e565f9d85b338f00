-- app.vw_clientes: the client portfolio, one row per ERP client (corrent tipo 'C').
--
-- Why: GET /clients lists a representative's portfolio (cod_vendedor) or, for supervisors
-- and admins, every client of the tenant; GET /clients/{id} shows one; an order reads its
-- client here. Besides the ERP registration it carries what the screens need in one read:
-- the financial status, the credit limit that Campo keeps itself (app.limites_credito: the
-- spec says creditLimit is not taken from the ERP), and the latest order. end_entrega is the
-- address as one line, the default copied into a new order, or null when the ERP has no
-- street or no city for the client: an order then needs a typed address (POST /orders
-- refuses NO_DELIVERY_ADDRESS) rather than an invented one like " - , CEP ". cadastro_ativo
-- is the ERP's registration flag, not the 30-day activity. The address parts and the
-- char(n) columns (tipo_pessoa, uf, cep) are trimmed, blank as null: the ERP's blank
-- padding never reaches the API.
--
-- status_financeiro, from the client's open titles (vw_titulos_abertos; amounts are what is
-- still open, valor - valor_pago):
--   * 'blocked' when the ERP's credit department blocked the client by hand
--     (corrent.situacao = 'B'), or when some title is unpaid more than 30 days after its
--     due date (dias_atraso_max > 30): a blocked client cannot receive a new order (the UI
--     disables the action and the server refuses it);
--   * else 'overdue' when some title is unpaid after its due date;
--   * else 'ok'.
-- pedidos_em_aberto sums the client's Campo orders pending approval or approved (situa 1
-- and 2, every representative's: app.pedidos_em_aberto): with valor_em_aberto and
-- limite_credito, the client's available credit.
-- ultimo_pedido_em is the latest order wherever it was placed: Campo's (every order not
-- rejected nor cancelled), the ERP's (every order not cancelled, including the replicas of Campo orders,
-- which carry the original's date), and the ERP's own last-purchase date for history older
-- than its order table; null for a client who never ordered. A client with no order for
-- more than 30 days counts as inactive.
--
-- Every figure is computed from the client's own row (a lateral aggregate, per-client
-- subqueries) instead of joining views that each read corrent and empresas again: an order
-- reads one client from here on every request, and each join was a plan node to start up
-- and a relation to lock. The subqueries also mean a query looks up only the clients it
-- asks for, through the indexes on the client column, and a query that does not select
-- ultimo_pedido_em does not run them.
--
-- erp-reads: public.corrent(id_corrent, id_empresa, tipo, tipo_pessoa, razao_social,
--   nome_fantasia, cnpj_cpf, inscricao_estadual, endereco, numero, complemento, bairro,
--   cidade, uf, cep, telefone, email, cod_vendedor, id_pauta, dt_cadastro,
--   origem, ativo, id_condicao, situacao, dt_ultima_compra)
-- erp-reads: public.pedidos_venda(id_corrent, dt_emissao, situacao)
create view app.vw_clientes as
select c.id_corrent                 as id_cliente,
       e.id_empresa,
       c.id_empresa                 as id_filial,
       c.cod_vendedor,
       c.id_pauta,
       btrim(c.tipo_pessoa)         as tipo_pessoa,
       c.razao_social,
       c.nome_fantasia,
       c.cnpj_cpf,
       c.inscricao_estadual,
       a.endereco,
       a.numero,
       a.complemento,
       a.bairro,
       a.cidade,
       a.uf,
       a.cep,
       c.telefone,
       c.email,
       case when a.endereco is not null and a.cidade is not null then
         concat_ws(', ',
                   concat_ws(' ', a.endereco, a.numero),
                   a.complemento,
                   a.bairro,
                   concat_ws(' - ', a.cidade, a.uf),
                   'CEP ' || a.cep)
       end                          as end_entrega,
       case
         when c.situacao = 'B' or t.dias_atraso_max > 30 then 'blocked'
         when t.titulos_vencidos > 0 then 'overdue'
         else 'ok'
       end                          as status_financeiro,
       t.valor_em_aberto,
       t.valor_vencido,
       t.dias_atraso_max,
       lc.limite                    as limite_credito,
       app.pedidos_em_aberto(e.id_empresa, c.id_corrent)::numeric(14, 2) as pedidos_em_aberto,
       greatest(
         (select max(p.criado_em)
            from app.pedidos p
           where p.id_cliente = c.id_corrent and p.situa not in (4, 5)),
         (select max(pv.dt_emissao)::timestamptz
            from public.pedidos_venda pv
           where pv.id_corrent = c.id_corrent and pv.situacao <> 'C'),
         c.dt_ultima_compra::timestamptz
       )                            as ultimo_pedido_em,
       c.ativo = 'S'                as cadastro_ativo,
       c.dt_cadastro,
       c.origem,
       c.id_condicao
  from public.corrent c
 cross join lateral (
   select nullif(btrim(c.endereco), '')    as endereco,
          nullif(btrim(c.numero), '')      as numero,
          nullif(btrim(c.complemento), '') as complemento,
          nullif(btrim(c.bairro), '')      as bairro,
          nullif(btrim(c.cidade), '')      as cidade,
          nullif(btrim(c.uf), '')          as uf,
          nullif(btrim(c.cep), '')         as cep
 ) a
  join app.vw_empresas e on e.id_filial = c.id_empresa
  -- An aggregate without GROUP BY gives one row, zeros for a client who owes nothing.
 cross join lateral (
         select coalesce(sum(t.valor_em_aberto), 0)::numeric(14, 2)                         as valor_em_aberto,
                coalesce(sum(t.valor_em_aberto) filter (where t.vencido), 0)::numeric(14, 2) as valor_vencido,
                count(*) filter (where t.vencido)::integer                                 as titulos_vencidos,
                coalesce(max(t.dias_atraso), 0)                                            as dias_atraso_max
           from app.vw_titulos_abertos t
          where t.id_cliente = c.id_corrent
       ) t
  left join app.limites_credito lc on lc.id_empresa = e.id_empresa and lc.id_cliente = c.id_corrent
 where c.tipo = 'C';

comment on view app.vw_clientes is 'Campo: client portfolio with financial status, Campo credit limit and latest order.';
