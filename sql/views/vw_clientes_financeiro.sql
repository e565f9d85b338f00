-- app.vw_clientes_financeiro: the financial situation of each client.
--
-- Why: a blocked client cannot receive a new order (the UI disables the action and the
-- server refuses it), and the portfolio filters by financial status. The rule:
--   * 'blocked' when the ERP's credit department blocked the client by hand
--     (corrent.situacao = 'B'), or when some title is unpaid more than 30 days after its
--     due date (dias_atraso_max > 30);
--   * else 'overdue' when some title is unpaid after its due date;
--   * else 'ok'.
-- Amounts are what is still open (valor - valor_pago). One row per ERP client (tipo 'C'),
-- including clients that owe nothing.
--
-- erp-reads: public.corrent(id_corrent, id_empresa, tipo, situacao)
create view app.vw_clientes_financeiro as
select c.id_corrent                                   as id_cliente,
       e.id_empresa,
       c.id_empresa                                   as id_filial,
       c.situacao = 'B'                               as bloqueio_manual,
       coalesce(f.valor_em_aberto, 0)::numeric(14, 2) as valor_em_aberto,
       coalesce(f.valor_vencido, 0)::numeric(14, 2)   as valor_vencido,
       coalesce(f.titulos_vencidos, 0)                as titulos_vencidos,
       coalesce(f.dias_atraso_max, 0)                 as dias_atraso_max,
       case
         when c.situacao = 'B' or coalesce(f.dias_atraso_max, 0) > 30 then 'blocked'
         when coalesce(f.titulos_vencidos, 0) > 0 then 'overdue'
         else 'ok'
       end                                            as status_financeiro
  from public.corrent c
  join app.vw_empresas e on e.id_filial = c.id_empresa
  left join lateral (
         select sum(t.valor_em_aberto)                                 as valor_em_aberto,
                sum(t.valor_em_aberto) filter (where t.vencido)       as valor_vencido,
                count(*) filter (where t.vencido)::integer            as titulos_vencidos,
                max(t.dias_atraso)                                    as dias_atraso_max
           from app.vw_titulos_abertos t
          where t.id_cliente = c.id_corrent
       ) f on true
 where c.tipo = 'C';

comment on view app.vw_clientes_financeiro is 'Campo: per client open and overdue amounts and status_financeiro ok | overdue | blocked (manual block or > 30 days overdue).';
