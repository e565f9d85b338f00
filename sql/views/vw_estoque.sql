-- app.vw_estoque: stock on hand per product and tenant, where the ERP keeps it.
--
-- Why: the catalog and the cart show how much there is and warn (never block) when a
-- quantity exceeds it. Optional in the ERP contract: it reads the ERP through
-- app.estoque_erp(), which returns no rows when the ERP has no stock table, so a product
-- without a row here has unknown stock (shown as nothing, not as zero). A tenant's stock is
-- the sum over its head office and branches.
--
-- erp-reads: (none)
create view app.vw_estoque as
select e.id_empresa,
       s.id_produto,
       sum(s.quantidade) as quantidade
  from app.estoque_erp() s
  join app.vw_empresas e on e.id_filial = s.id_filial
 group by e.id_empresa, s.id_produto;

comment on view app.vw_estoque is 'Campo: stock on hand per product and tenant; empty when the ERP keeps no stock.';
