-- app.vw_sitpedido (odoo profile): the situation of every ERP sale order (the spec names this
-- view); the other order views of this profile read sale_order through it.
--
-- Why: historical orders are consulted here, and an approved Campo order becomes invoiced when
-- its replica (app.pedidos.erp_id_pedido = id_pedido) does. Odoo's state and invoice_status
-- map onto Campo's situacao: 'C' cancelled (state 'cancel'), 'F' invoiced (invoice_status
-- 'invoiced'), 'A' open otherwise; quotations (state 'draft' or 'sent') are not orders yet
-- and are left out. The order's number is the digits of its name ('S00042' is 42, numbered
-- by ir_sequence). Replicas of Campo orders carry origin 'CAMPO' and Campo's number in
-- client_order_ref (text). date_order is UTC, as Odoo stores every datetime: dt_emissao is it
-- on the session's wall clock, like the reference ERP's local timestamps.
--
-- erp-reads: public.sale_order(id, name, company_id, partner_id, user_id, pricelist_id,
--   date_order, state, invoice_status, amount_total, x_endereco_entrega, note, origin,
--   client_order_ref)
create view app.vw_sitpedido as
select so.id                                                   as id_pedido,
       e.id_empresa,
       e.id_filial,
       nullif(regexp_replace(so.name, '[^0-9]', '', 'g'), '')::integer as num_pedido,
       case when so.origin = 'CAMPO' and so.client_order_ref ~ '^[0-9]{1,9}$'
            then so.client_order_ref::integer end              as num_ped_sar,
       so.partner_id                                           as id_corrent,
       so.user_id                                              as cod_vendedor,
       so.pricelist_id                                         as id_pauta,
       (so.date_order at time zone 'UTC')::timestamp           as dt_emissao,
       s.situacao,
       case s.situacao
         when 'A' then 'aberto'
         when 'F' then 'faturado'
         when 'C' then 'cancelado'
       end                                                     as situacao_descricao,
       so.amount_total                                         as valor_total,
       so.x_endereco_entrega                                   as end_entrega,
       so.note                                                 as observacao,
       case when so.origin = 'CAMPO' then 'CAMPO' else 'ERP' end as origem
  from public.sale_order so
 cross join lateral (
   select case
            when so.state = 'cancel' then 'C'
            when so.invoice_status = 'invoiced' then 'F'
            else 'A'
          end::text as situacao
 ) s
  join app.vw_empresas e on e.id_filial = so.company_id
 where so.state not in ('draft', 'sent');

comment on view app.vw_sitpedido is 'Campo: ERP sale orders and their situation A aberto | F faturado | C cancelado.';
