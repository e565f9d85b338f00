-- app.vw_notas_itens: the lines of an invoice (products and quantities shipped and billed).
--
-- Why: when an order is invoiced in part, the order's page shows which lines and quantities
-- went out on each invoice and what is still open. Lines of cancelled invoices are here too
-- (the invoice carries the flag, app.vw_notas_pedido), so that what counts is decided in
-- one place.
--
-- erp-reads: public.notas_fiscais_itens(id_nota, seq, id_produto, quantidade,
--   valor_unitario, valor_total)
-- erp-reads: public.notas_fiscais(id_nota, id_empresa)
create view app.vw_notas_itens as
select i.id_nota,
       e.id_empresa,
       i.seq,
       i.id_produto,
       i.quantidade,
       i.valor_unitario,
       i.valor_total
  from public.notas_fiscais_itens i
  join public.notas_fiscais n on n.id_nota = i.id_nota
  join app.vw_empresas e on e.id_filial = n.id_empresa;

comment on view app.vw_notas_itens is 'Campo: lines of ERP invoices, for partial invoicing.';
