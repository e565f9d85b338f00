-- app.garantir_indice_erp(tabela, colunas, nome): makes sure an ERP table has an index that
-- starts with the given columns, creating one named nome only when none does.
--
-- Why: Campo's views filter ERP tables on columns an ERP may or may not have indexed
-- already. A duplicate index would cost the ERP disk and write time for nothing, so an
-- existing valid, non-partial index whose leading key columns are exactly these counts as
-- enough. Returns true when it created the index. Reads the PostgreSQL catalog; writes an
-- index on the given ERP table only when it is missing (see sql/indexes/).
create or replace function app.garantir_indice_erp(tabela regclass, colunas text[], nome text)
returns boolean
language plpgsql
as $fn$
declare
  v_coberto boolean;
begin
  if nome !~ '^campo_[a-z0-9_]+$' then
    raise exception 'ERP index names must match campo_[a-z0-9_]+, got %', nome;
  end if;
  select exists (
           select 1
             from pg_catalog.pg_index i
            where i.indrelid = tabela
              and i.indisvalid
              and i.indpred is null
              and (select array_agg(a.attname::text order by k.ord)
                     from unnest(i.indkey::int2[]) with ordinality as k(attnum, ord)
                     join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
                    where k.ord <= cardinality(colunas)) = colunas)
    into v_coberto;
  if v_coberto then
    return false;
  end if;
  execute format('create index if not exists %I on %s (%s)', nome, tabela,
                 (select string_agg(quote_ident(c), ', ' order by o) from unnest(colunas) with ordinality as u(c, o)));
  return true;
end
$fn$;

comment on function app.garantir_indice_erp(regclass, text[], text) is
  'Campo: creates index nome on an ERP table unless an index already starts with colunas.';
