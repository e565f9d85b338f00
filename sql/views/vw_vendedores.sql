-- app.vw_vendedores: the representatives of each tenant, with their supervisor, their
-- default discount ceiling and their commission rates.
--
-- Why: the order engine needs the default ceiling (perc_desc_max: Campo's own default in
-- app.limites_desconto_representante wins over the ERP's; null means none is set and the
-- engine uses 5%), the rep dashboard needs the commission rates (fixed and FLEX, in
-- percent), and the supervisor views group reps by cod_supervisor.
--
-- erp-reads: public.vendedores(id_empresa, cod_vendedor, nome, email, telefone,
--   cod_supervisor, perc_desc_max, perc_comissao, perc_comissao_flex, ativo)
-- erp-reads: public.supervisores(id_empresa, cod_supervisor, nome)
create view app.vw_vendedores as
select e.id_empresa,
       v.id_empresa                                as id_filial,
       v.cod_vendedor,
       v.nome,
       v.email,
       v.telefone,
       v.cod_supervisor,
       s.nome                                      as nome_supervisor,
       coalesce(l.perc_desc_max, v.perc_desc_max)  as perc_desc_max,
       v.perc_desc_max                             as perc_desc_max_erp,
       v.perc_comissao,
       v.perc_comissao_flex,
       v.ativo = 'S'                               as ativo
  from public.vendedores v
  join app.vw_empresas e on e.id_filial = v.id_empresa
  left join public.supervisores s
         on s.id_empresa = v.id_empresa and s.cod_supervisor = v.cod_supervisor
  left join app.limites_desconto_representante l
         on l.id_empresa = e.id_empresa and l.cod_vendedor = v.cod_vendedor and l.categoria is null;

comment on view app.vw_vendedores is 'Campo: representatives per tenant with supervisor, default ceiling and commission rates.';
