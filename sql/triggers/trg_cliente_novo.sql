-- trg_cliente_novo on app.clientes_novos: a client registered in the field enters the ERP.
--
-- Why: the spec's replication rule for new clients. BEFORE INSERT, the ERP corporate
-- entity (corrent, tipo 'C') is created with every column the ERP declares NOT NULL, and
-- the new row gets id_corrent_erp and sincronizado = true. If the ERP insert fails, the
-- INSERT into clientes_novos fails with it: there is never a new client that the ERP
-- does not know.
--
-- ERP rules this trigger follows (the adapter: change them here for another ERP):
--   * the ERP company is the one the representative is registered in, within the tenant,
--     so that the ERP's foreign key (id_empresa, cod_vendedor) holds;
--   * cnpj_cpf and cep keep digits only; a CPF has 11 digits, a CNPJ 14, a CEP 8;
--   * a CNPJ/CPF already registered as a client in any company of the tenant is refused
--     (unique_violation naming the existing id_corrent) instead of duplicated;
--   * mandatory text that is empty after clean-up is refused, naming the columns; the
--     ERP's usual placeholders fill what Brazilian registrations allow to be absent:
--     inscricao_estadual 'ISENTO', numero 'S/N', nome_fantasia = razao_social;
--   * origem 'CAMPO', situacao 'N' (not blocked), ativo 'S';
--   * every text goes through app.texto_erp, cut to the ERP column's own width.
--
-- erp-reads: public.empresas(id_empresa, id_matriz)
-- erp-reads: public.vendedores(id_empresa, cod_vendedor)
-- erp-writes: public.corrent(id_corrent, id_empresa, tipo, tipo_pessoa, razao_social,
--   nome_fantasia, cnpj_cpf, inscricao_estadual, endereco, numero, complemento, bairro,
--   cidade, uf, cep, telefone, email, cod_vendedor, id_pauta, situacao, dt_cadastro,
--   origem, ativo)
create or replace function app.fn_cliente_novo()
returns trigger
language plpgsql
-- Runs as the owner that provisioned it: the server's role writes the ERP only through
-- this trigger and holds no privilege on the ERP tables itself.
security definer
set search_path = pg_catalog, pg_temp
as $fn$
declare
  v_empresa_erp  integer;
  v_id_corrent   integer;
  v_existente    integer;
  v_doc          text;
  v_digitos      integer;
  v_cep          text;
  v_uf           text;
  v_razao        text;
  v_endereco     text;
  v_bairro       text;
  v_cidade       text;
  v_vazios       text[];
begin
  select v.id_empresa
    into v_empresa_erp
    from public.vendedores v
    join public.empresas e on e.id_empresa = v.id_empresa
   where v.cod_vendedor = new.cod_vendedor
     and coalesce(e.id_matriz, e.id_empresa) = new.id_empresa
   order by v.id_empresa <> new.id_empresa, v.id_empresa
   limit 1;
  if v_empresa_erp is null then
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

  select c.id_corrent
    into v_existente
    from public.corrent c
    join public.empresas e on e.id_empresa = c.id_empresa
   where coalesce(e.id_matriz, e.id_empresa) = new.id_empresa
     and c.tipo = 'C'
     and c.cnpj_cpf = v_doc
   limit 1;
  if v_existente is not null then
    raise exception 'new client: CNPJ/CPF % is already registered in the ERP (id_corrent %)', v_doc, v_existente
      using errcode = 'unique_violation';
  end if;

  v_cep := regexp_replace(new.cep, '[^0-9]', '', 'g');
  v_uf := upper(app.texto_erp(new.uf, app.largura_coluna_erp('public.corrent', 'uf')));
  v_razao := nullif(app.texto_erp(new.razao_social, app.largura_coluna_erp('public.corrent', 'razao_social')), '');
  v_endereco := nullif(app.texto_erp(new.endereco, app.largura_coluna_erp('public.corrent', 'endereco')), '');
  v_bairro := nullif(app.texto_erp(new.bairro, app.largura_coluna_erp('public.corrent', 'bairro')), '');
  v_cidade := nullif(app.texto_erp(new.cidade, app.largura_coluna_erp('public.corrent', 'cidade')), '');
  v_vazios := array_remove(array[
    case when v_razao is null then 'razao_social' end,
    case when v_endereco is null then 'endereco' end,
    case when v_bairro is null then 'bairro' end,
    case when v_cidade is null then 'cidade' end,
    case when v_uf !~ '^[A-Z]{2}$' then 'uf' end,
    case when length(v_cep) <> 8 then 'cep' end
  ], null);
  if cardinality(v_vazios) > 0 then
    raise exception 'new client: ERP mandatory fields missing or invalid: %', array_to_string(v_vazios, ', ')
      using errcode = 'not_null_violation';
  end if;

  insert into public.corrent
         (id_empresa, tipo, tipo_pessoa, razao_social, nome_fantasia, cnpj_cpf, inscricao_estadual,
          endereco, numero, complemento, bairro, cidade, uf, cep, telefone, email, cod_vendedor,
          id_pauta, situacao, dt_cadastro, origem, ativo)
  values (v_empresa_erp, 'C', new.tipo_pessoa, v_razao,
          coalesce(nullif(app.texto_erp(new.nome_fantasia, app.largura_coluna_erp('public.corrent', 'nome_fantasia')), ''),
                   app.texto_erp(v_razao, app.largura_coluna_erp('public.corrent', 'nome_fantasia'))),
          v_doc,
          coalesce(nullif(app.texto_erp(new.inscricao_estadual, app.largura_coluna_erp('public.corrent', 'inscricao_estadual')), ''),
                   'ISENTO'),
          v_endereco,
          coalesce(nullif(app.texto_erp(new.numero, app.largura_coluna_erp('public.corrent', 'numero')), ''), 'S/N'),
          nullif(app.texto_erp(new.complemento, app.largura_coluna_erp('public.corrent', 'complemento')), ''),
          v_bairro, v_cidade, v_uf, v_cep,
          nullif(app.texto_erp(new.telefone, app.largura_coluna_erp('public.corrent', 'telefone')), ''),
          nullif(app.texto_erp(new.email, app.largura_coluna_erp('public.corrent', 'email')), ''),
          new.cod_vendedor, new.id_pauta, 'N', now(), 'CAMPO', 'S')
  returning id_corrent into v_id_corrent;

  new.id_corrent_erp := v_id_corrent;
  new.sincronizado := true;
  return new;
end
$fn$;

comment on function app.fn_cliente_novo() is
  'Campo: before insert into clientes_novos creates the ERP client (corrent tipo C) and links it.';

-- PostgreSQL 12 and 13 have no CREATE OR REPLACE TRIGGER; provisioning runs both in one
-- transaction, so there is no moment without the trigger.
drop trigger if exists trg_cliente_novo on app.clientes_novos;
create trigger trg_cliente_novo
  before insert on app.clientes_novos
  for each row
  execute function app.fn_cliente_novo();
