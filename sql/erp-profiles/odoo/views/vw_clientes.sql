-- app.vw_clientes (odoo profile): the client portfolio, one row per client in res_partner.
--
-- Why: the same portfolio, financial status, credit and latest order as the reference
-- profile's vw_clientes (read its header for what each column means and why); here is how
-- Odoo's shape maps onto it:
--   * res_partner holds clients, suppliers and the users' own contacts alike: a client is a
--     partner with customer_rank > 0 that belongs to a company (company_id); a supplier that
--     also buys is a client too;
--   * tipo_pessoa is 'J' for a company (is_company), 'F' for a person; CNPJ/CPF (vat) and CEP
--     (zip) are typed with punctuation in Odoo and reach the API as digits only; the UF is
--     the code of res_country_state;
--   * the address parts are street, street_number, street2 (complement), l10n_br_district;
--   * the salesperson (cod_vendedor) is res_partner.user_id, the price list and the default
--     payment term the partner's properties;
--   * a manual block by the credit department is the integrator's flag
--     x_bloqueio_financeiro 'S'/'N'; the last purchase before the order history is
--     x_data_ultima_compra, text DD/MM/YYYY from the old system (anything else is ignored);
--   * the latest ERP order is read through app.vw_sitpedido (not cancelled, no quotations).
--
-- erp-reads: public.res_partner(id, name, x_nome_fantasia, company_id, is_company,
--   customer_rank, vat, l10n_br_ie_code, street, street_number, street2, l10n_br_district,
--   city, state_id, zip, phone, email, user_id, property_product_pricelist,
--   property_payment_term_id, x_bloqueio_financeiro, x_data_ultima_compra, x_origem, active,
--   create_date)
-- erp-reads: public.res_country_state(id, code)
create view app.vw_clientes as
select c.id                         as id_cliente,
       e.id_empresa,
       c.company_id                 as id_filial,
       c.user_id                    as cod_vendedor,
       c.property_product_pricelist as id_pauta,
       case when c.is_company then 'J' else 'F' end as tipo_pessoa,
       c.name                       as razao_social,
       coalesce(nullif(btrim(c.x_nome_fantasia), ''), c.name) as nome_fantasia,
       regexp_replace(coalesce(c.vat, ''), '[^0-9A-Za-z]', '', 'g') as cnpj_cpf,
       c.l10n_br_ie_code            as inscricao_estadual,
       a.endereco,
       a.numero,
       a.complemento,
       a.bairro,
       a.cidade,
       a.uf,
       a.cep,
       c.phone                      as telefone,
       c.email,
       case when a.endereco is not null and a.cidade is not null then
         concat_ws(', ',
                   concat_ws(' ', a.endereco, a.numero),
                   a.complemento,
                   a.bairro,
                   concat_ws(' - ', a.cidade, a.uf),
                   'CEP ' || a.cep)
       end                          as end_entrega,
       case
         when c.x_bloqueio_financeiro = 'S' or t.dias_atraso_max > 30 then 'blocked'
         when t.titulos_vencidos > 0 then 'overdue'
         else 'ok'
       end                          as status_financeiro,
       t.valor_em_aberto,
       t.valor_vencido,
       t.dias_atraso_max,
       lc.limite                    as limite_credito,
       app.pedidos_em_aberto(e.id_empresa, c.id)::numeric(14, 2) as pedidos_em_aberto,
       greatest(
         (select max(p.criado_em)
            from app.pedidos p
           where p.id_cliente = c.id and p.situa not in (4, 5)),
         (select max(sp.dt_emissao)::timestamptz
            from app.vw_sitpedido sp
           where sp.id_corrent = c.id and sp.situacao <> 'C'),
         case when c.x_data_ultima_compra ~ '^[0-9]{2}/[0-9]{2}/[0-9]{4}$'
              then to_date(c.x_data_ultima_compra, 'DD/MM/YYYY')::timestamptz end
       )                            as ultimo_pedido_em,
       c.active                     as cadastro_ativo,
       c.create_date                as dt_cadastro,
       c.x_origem                   as origem,
       c.property_payment_term_id   as id_condicao
  from public.res_partner c
  left join public.res_country_state st on st.id = c.state_id
 cross join lateral (
   select nullif(btrim(c.street), '')           as endereco,
          nullif(btrim(c.street_number), '')    as numero,
          nullif(btrim(c.street2), '')          as complemento,
          nullif(btrim(c.l10n_br_district), '') as bairro,
          nullif(btrim(c.city), '')             as cidade,
          nullif(btrim(st.code), '')            as uf,
          nullif(regexp_replace(coalesce(c.zip, ''), '[^0-9]', '', 'g'), '') as cep
 ) a
  join app.vw_empresas e on e.id_filial = c.company_id
 cross join lateral (
         select coalesce(sum(t.valor_em_aberto), 0)::numeric(14, 2)                         as valor_em_aberto,
                coalesce(sum(t.valor_em_aberto) filter (where t.vencido), 0)::numeric(14, 2) as valor_vencido,
                count(*) filter (where t.vencido)::integer                                 as titulos_vencidos,
                coalesce(max(t.dias_atraso), 0)                                            as dias_atraso_max
           from app.vw_titulos_abertos t
          where t.id_cliente = c.id
       ) t
  left join app.limites_credito lc on lc.id_empresa = e.id_empresa and lc.id_cliente = c.id
 where c.customer_rank > 0;

comment on view app.vw_clientes is 'Campo: client portfolio (res_partner customers) with financial status, Campo credit limit and latest order.';
