-- app.vw_clientes: the client portfolio, one row per ERP client (corrent tipo 'C').
--
-- Why: GET /clients lists a representative's portfolio (cod_vendedor) or, for supervisors
-- and admins, every client of the tenant; GET /clients/{id} shows one. Besides the ERP
-- registration it carries what the screens need in one read: the financial status
-- (vw_clientes_financeiro), the credit limit that Campo keeps itself (app.limites_credito:
-- the spec says creditLimit is not taken from the ERP), and the latest order
-- (vw_ultima_compra). end_entrega is the address as one line, the default copied into a
-- new order, or null when the ERP has no street or no city for the client: an order then
-- needs a typed address (POST /orders refuses NO_DELIVERY_ADDRESS) rather than an invented
-- one like " - , CEP ". cadastro_ativo is the ERP's registration flag, not the 30-day activity.
-- The address parts and the char(n) columns (tipo_pessoa, uf, cep) are trimmed, blank as
-- null: the ERP's blank padding never reaches the API.
--
-- erp-reads: public.corrent(id_corrent, id_empresa, tipo, tipo_pessoa, razao_social,
--   nome_fantasia, cnpj_cpf, inscricao_estadual, endereco, numero, complemento, bairro,
--   cidade, uf, cep, telefone, email, cod_vendedor, id_pauta, dt_cadastro,
--   origem, ativo, id_condicao)
create view app.vw_clientes as
select c.id_corrent                 as id_cliente,
       e.id_empresa,
       c.id_empresa                 as id_filial,
       c.cod_vendedor,
       c.id_pauta,
       btrim(c.tipo_pessoa)         as tipo_pessoa,
       c.razao_social,
       c.nome_fantasia,
       c.cnpj_cpf,
       c.inscricao_estadual,
       a.endereco,
       a.numero,
       a.complemento,
       a.bairro,
       a.cidade,
       a.uf,
       a.cep,
       c.telefone,
       c.email,
       case when a.endereco is not null and a.cidade is not null then
         concat_ws(', ',
                   concat_ws(' ', a.endereco, a.numero),
                   a.complemento,
                   a.bairro,
                   concat_ws(' - ', a.cidade, a.uf),
                   'CEP ' || a.cep)
       end                          as end_entrega,
       f.status_financeiro,
       f.valor_em_aberto,
       f.valor_vencido,
       f.dias_atraso_max,
       lc.limite                    as limite_credito,
       u.ultimo_pedido_em,
       c.ativo = 'S'                as cadastro_ativo,
       c.dt_cadastro,
       c.origem,
       c.id_condicao
  from public.corrent c
 cross join lateral (
   select nullif(btrim(c.endereco), '')    as endereco,
          nullif(btrim(c.numero), '')      as numero,
          nullif(btrim(c.complemento), '') as complemento,
          nullif(btrim(c.bairro), '')      as bairro,
          nullif(btrim(c.cidade), '')      as cidade,
          nullif(btrim(c.uf), '')          as uf,
          nullif(btrim(c.cep), '')         as cep
 ) a
  join app.vw_empresas e on e.id_filial = c.id_empresa
  join app.vw_clientes_financeiro f on f.id_cliente = c.id_corrent
  left join app.limites_credito lc on lc.id_empresa = e.id_empresa and lc.id_cliente = c.id_corrent
  join app.vw_ultima_compra u on u.id_cliente = c.id_corrent
 where c.tipo = 'C';

comment on view app.vw_clientes is 'Campo: client portfolio with financial status, Campo credit limit and latest order.';
