-- app.vw_pautas (odoo profile): price lists (product_pricelist).
--
-- Why: every client buys on a price list (res_partner.property_product_pricelist), an order is
-- priced on one, and discount rules can be limited to one.
--
-- erp-reads: public.product_pricelist(id, name, company_id, active)
create view app.vw_pautas as
select e.id_empresa,
       e.id_filial,
       l.id     as id_pauta,
       l.name   as descricao,
       l.active as ativo
  from public.product_pricelist l
  join app.vw_empresas e on e.id_filial = l.company_id;

comment on view app.vw_pautas is 'Campo: price lists (product_pricelist) per tenant.';
