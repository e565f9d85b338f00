-- trg_cliente_novo on app.clientes_novos (odoo profile): a client registered in the field
-- enters Odoo as a customer partner.
--
-- Why: the spec's replication rule for new clients, as in the reference profile: BEFORE
-- INSERT the partner is created with everything the ERP requires, and the new row gets
-- id_corrent_erp (the partner's id) and sincronizado = true; if the ERP insert fails, so
-- does the INSERT into clientes_novos.
--
-- Odoo rules this trigger follows:
--   * the partner's company is the salesperson's (res_users.company_id), which must be the
--     tenant or one of its branches; the salesperson becomes the partner's user_id and the
--     price list its property_product_pricelist;
--   * one res_partner table holds clients and suppliers: the partner is a customer
--     (customer_rank 1, supplier_rank 0), a company (is_company) for a CNPJ, a person for a
--     CPF;
--   * vat is stored as Odoo's Brazilian localisation formats it (00.000.000/0000-00 or
--     000.000.000-00), zip as 00000-000; a CNPJ/CPF already registered as a customer in any
--     company of the tenant is refused (unique_violation naming the partner) instead of
--     duplicated, comparing digits only;
--   * the UF must be a state of res_country_state (its code); mandatory text empty after
--     clean-up is refused, naming the fields; l10n_br_ie_code 'ISENTO', street_number 'S/N'
--     and the trade name = the legal name fill what may be absent;
--   * x_origem 'CAMPO', x_bloqueio_financeiro 'N', active;
--   * every text goes through app.texto_erp, cut to the ERP column's own width.
--
-- erp-reads: public.res_users(id, company_id)
-- erp-reads: public.res_company(id, parent_id)
-- erp-reads: public.res_country_state(id, code)
-- erp-writes: public.res_partner(id, name, x_nome_fantasia, company_id, is_company,
--   customer_rank, supplier_rank, vat, l10n_br_ie_code, street, street_number, street2,
--   l10n_br_district, city, state_id, zip, phone, email, user_id, property_product_pricelist,
--   x_bloqueio_financeiro, x_origem, active, create_date, write_date)
create or replace function app.fn_cliente_novo()
returns trigger
language plpgsql
-- Runs as the owner that provisioned it: the server's role writes the ERP only through
-- this trigger and holds no privilege on the ERP tables itself.
security definer
set search_path = pg_catalog, pg_temp
as $fn$
declare
  v_company    integer;
  v_id         integer;
  v_existente  integer;
  v_doc        text;
  v_digitos    integer;
  v_cep        text;
  v_uf         text;
  v_state      integer;
  v_razao      text;
  v_endereco   text;
  v_bairro     text;
  v_cidade     text;
  v_vazios     text[];
begin
  select u.company_id
    into v_company
    from public.res_users u
    join public.res_company c on c.id = u.company_id
   where u.id = new.cod_vendedor
     and coalesce(c.parent_id, c.id) = new.id_empresa;
  if v_company is null then
    raise exception 'new client: representative % is not registered in the ERP for company %',
      new.cod_vendedor, new.id_empresa
      using errcode = 'foreign_key_violation';
  end if;

  -- Letters stay: the alphanumeric CNPJ (IN RFB 2.229/2024) holds them.
  v_doc := upper(regexp_replace(new.cnpj_cpf, '[^0-9A-Za-z]', '', 'g'));
  v_digitos := (case new.tipo_pessoa when 'F' then 11 else 14 end);
  if length(v_doc) <> v_digitos then
    raise exception 'new client: % must have % digits, got "%"',
      (case new.tipo_pessoa when 'F' then 'CPF' else 'CNPJ' end), v_digitos, new.cnpj_cpf
      using errcode = 'check_violation';
  end if;

  select p.id
    into v_existente
    from public.res_partner p
    join public.res_company c on c.id = p.company_id
   where coalesce(c.parent_id, c.id) = new.id_empresa
     and p.customer_rank > 0
     and upper(regexp_replace(coalesce(p.vat, ''), '[^0-9A-Za-z]', '', 'g')) = v_doc
   limit 1;
  if v_existente is not null then
    raise exception 'new client: CNPJ/CPF % is already registered in the ERP (res_partner %)', v_doc, v_existente
      using errcode = 'unique_violation';
  end if;

  v_cep := regexp_replace(new.cep, '[^0-9]', '', 'g');
  v_uf := upper(app.texto_erp(new.uf, 3));
  select s.id into v_state from public.res_country_state s where s.code = v_uf limit 1;
  v_razao := nullif(app.texto_erp(new.razao_social, app.largura_coluna_erp('public.res_partner', 'name')), '');
  v_endereco := nullif(app.texto_erp(new.endereco, app.largura_coluna_erp('public.res_partner', 'street')), '');
  v_bairro := nullif(app.texto_erp(new.bairro, app.largura_coluna_erp('public.res_partner', 'l10n_br_district')), '');
  v_cidade := nullif(app.texto_erp(new.cidade, app.largura_coluna_erp('public.res_partner', 'city')), '');
  v_vazios := array_remove(array[
    case when v_razao is null then 'razao_social' end,
    case when v_endereco is null then 'endereco' end,
    case when v_bairro is null then 'bairro' end,
    case when v_cidade is null then 'cidade' end,
    case when v_uf !~ '^[A-Z]{2}$' or v_state is null then 'uf' end,
    case when length(v_cep) <> 8 then 'cep' end
  ], null);
  if cardinality(v_vazios) > 0 then
    raise exception 'new client: ERP mandatory fields missing or invalid: %', array_to_string(v_vazios, ', ')
      using errcode = 'not_null_violation';
  end if;

  insert into public.res_partner
         (name, x_nome_fantasia, company_id, is_company, customer_rank, supplier_rank, vat, l10n_br_ie_code,
          street, street_number, street2, l10n_br_district, city, state_id, zip, phone, email, user_id,
          property_product_pricelist, x_bloqueio_financeiro, x_origem, active, create_date, write_date)
  values (v_razao,
          coalesce(nullif(app.texto_erp(new.nome_fantasia, app.largura_coluna_erp('public.res_partner', 'x_nome_fantasia')), ''),
                   app.texto_erp(v_razao, app.largura_coluna_erp('public.res_partner', 'x_nome_fantasia'))),
          v_company, new.tipo_pessoa <> 'F', 1, 0,
          case when v_digitos = 14
               then regexp_replace(v_doc, '^(..)(...)(...)(....)(..)$', '\1.\2.\3/\4-\5')
               else regexp_replace(v_doc, '^(...)(...)(...)(..)$', '\1.\2.\3-\4') end,
          coalesce(nullif(app.texto_erp(new.inscricao_estadual, app.largura_coluna_erp('public.res_partner', 'l10n_br_ie_code')), ''),
                   'ISENTO'),
          v_endereco,
          coalesce(nullif(app.texto_erp(new.numero, app.largura_coluna_erp('public.res_partner', 'street_number')), ''), 'S/N'),
          nullif(app.texto_erp(new.complemento, app.largura_coluna_erp('public.res_partner', 'street2')), ''),
          v_bairro, v_cidade, v_state,
          regexp_replace(v_cep, '^(.....)(...)$', '\1-\2'),
          nullif(app.texto_erp(new.telefone, app.largura_coluna_erp('public.res_partner', 'phone')), ''),
          nullif(app.texto_erp(new.email, app.largura_coluna_erp('public.res_partner', 'email')), ''),
          new.cod_vendedor, new.id_pauta, 'N', 'CAMPO', true, now(), now())
  returning id into v_id;

  new.id_corrent_erp := v_id;
  new.sincronizado := true;
  return new;
end
$fn$;

comment on function app.fn_cliente_novo() is
  'Campo: before insert into clientes_novos creates the ERP customer (res_partner, customer_rank 1) and links it (odoo profile).';

-- PostgreSQL 12 and 13 have no CREATE OR REPLACE TRIGGER; provisioning runs both in one
-- transaction, so there is no moment without the trigger.
drop trigger if exists trg_cliente_novo on app.clientes_novos;
create trigger trg_cliente_novo
  before insert on app.clientes_novos
  for each row
  execute function app.fn_cliente_novo();
