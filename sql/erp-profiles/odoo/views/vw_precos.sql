-- app.vw_precos (odoo profile): the price in force of each product on each price list.
--
-- Why: the server prices every order line from here and never trusts a device's price. Odoo
-- keeps prices as a long list of items (product_pricelist_item), several per product over
-- time: an item applies from date_start to date_end (UTC, as Odoo stores every datetime; null:
-- open on that side). Campo reads
-- fixed prices set on a product variant (applied_on '0_product_variant', compute_price
-- 'fixed'); of the items in force now the one that started last wins (Odoo's order too).
-- Formula items (percentages over another list) are not mapped: a product priced only by
-- one has no price here and cannot be sold from Campo. atualizado_em is the item's write
-- date, or its start when that is later (a price that comes into force must sync).
--
-- erp-reads: public.product_pricelist_item(id, pricelist_id, applied_on, product_id,
--   compute_price, fixed_price, date_start, date_end, write_date)
-- erp-reads: public.product_pricelist(id, company_id)
create view app.vw_precos as
select e.id_empresa,
       e.id_filial,
       i.pricelist_id  as id_pauta,
       i.product_id    as id_produto,
       i.fixed_price   as preco,
       greatest(i.write_date, i.date_start) as atualizado_em
  from (
        select distinct on (it.pricelist_id, it.product_id) it.*
          from public.product_pricelist_item it
         where it.applied_on = '0_product_variant' and it.compute_price = 'fixed'
           and it.product_id is not null and it.fixed_price is not null
           and (it.date_start is null or it.date_start <= now() at time zone 'UTC')
           and (it.date_end is null or it.date_end >= now() at time zone 'UTC')
         order by it.pricelist_id, it.product_id, it.date_start desc nulls last, it.id desc
       ) i
  join public.product_pricelist l on l.id = i.pricelist_id
  join app.vw_empresas e on e.id_filial = l.company_id;

comment on view app.vw_precos is 'Campo: fixed price in force per price list and product variant.';
