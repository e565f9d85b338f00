-- app.vw_regras_vigentes: the discount rules in force today.
--
-- Why: the catalog badges, the cart's pre-filled discounts and GET
-- /politicas/regras/vigentes read the rules in force; the server decides with its own
-- clock (current_date here), never the device's. A rule is in force from vigencia_inicio
-- through vigencia_fim inclusive (null: no end). badge is 'Promocao' for promotions,
-- 'Cond. especial' for special conditions. Reads no ERP table.
--
-- erp-reads: (none)
create view app.vw_regras_vigentes as
select r.id,
       r.id_empresa,
       r.descricao,
       r.grupo,
       r.subgrupo,
       r.representante,
       r.id_pauta,
       r.percent,
       r.vigencia_inicio,
       r.vigencia_fim,
       r.promocao,
       case when r.promocao then 'Promocao' else 'Cond. especial' end as badge
  from app.regras_desconto r
 where r.vigencia_inicio <= current_date
   and (r.vigencia_fim is null or r.vigencia_fim >= current_date);

comment on view app.vw_regras_vigentes is 'Campo: discount rules in force at current_date, with their badge.';
