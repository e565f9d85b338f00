-- app.largura_coluna_erp(tabela, coluna): the declared width of an ERP text column.
--
-- Why: the triggers cut text to the width the ERP really has, read from the catalog when
-- they run, instead of numbers copied into the trigger SQL that would break approvals
-- the day the ERP narrows a column. Returns the n of varchar(n) or char(n), and null for
-- unbounded text (no cut). Reads only the PostgreSQL catalog.
create or replace function app.largura_coluna_erp(tabela regclass, coluna name)
returns integer
language sql
stable
parallel safe
as $fn$
  select case when a.atttypmod > 4 then a.atttypmod - 4 end
    from pg_catalog.pg_attribute a
   where a.attrelid = tabela
     and a.attname = coluna
     and not a.attisdropped
$fn$;

comment on function app.largura_coluna_erp(regclass, name) is
  'Campo: width n of an ERP varchar(n)/char(n) column, null when unbounded; used to cut text written by the triggers.';
