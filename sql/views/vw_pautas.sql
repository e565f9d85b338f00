-- app.vw_pautas: price lists (pautas).
--
-- Why: every client buys on a pauta (vw_clientes.id_pauta), an order is priced on one,
-- and discount rules can be limited to one (regras_desconto.id_pauta).
--
-- erp-reads: public.pautas(id_empresa, id_pauta, descricao, ativo)
create view app.vw_pautas as
select e.id_empresa,
       p.id_empresa  as id_filial,
       p.id_pauta,
       p.descricao,
       p.ativo = 'S' as ativo
  from public.pautas p
  join app.vw_empresas e on e.id_filial = p.id_empresa;

comment on view app.vw_pautas is 'Campo: price lists (pautas) per tenant.';
