-- app.vw_faturamento_mes: billing per tenant, representative and month.
--
-- Why: the rep dashboard (commission: fixed rate x billing) and the manager's team cards
-- (faturamento, monthly variation) read billing by month. Billing is the value of the
-- non-cancelled invoices issued in the month (vw_notas_fiscais); mes is the month's first
-- day.
--
-- erp-reads: (none directly; see vw_notas_fiscais)
create view app.vw_faturamento_mes as
select n.id_empresa,
       n.cod_vendedor,
       date_trunc('month', n.dt_emissao)::date as mes,
       sum(n.valor_total)::numeric(14, 2)      as valor_faturado,
       count(*)::integer                       as notas,
       count(distinct n.id_cliente)::integer   as clientes
  from app.vw_notas_fiscais n
 group by n.id_empresa, n.cod_vendedor, date_trunc('month', n.dt_emissao)::date;

comment on view app.vw_faturamento_mes is 'Campo: billing (non-cancelled invoices) per tenant, rep and month.';
