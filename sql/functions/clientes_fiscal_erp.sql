-- app.clientes_fiscal_erp(): the ICMS regime the ERP keeps per client (contributor or not,
-- Simples Nacional or not, final consumer or resale), or no rows when it keeps none.
--
-- Why: whether ICMS-ST applies, and which tax rule, depends on who buys: a contributor that
-- resells pays the ST in advance on the invoice, a final consumer does not. Optional in the
-- ERP contract, like the other fiscal data: the table is looked up when the function runs, so
-- an ERP without public.corrent_fiscal provisions all the same and one that gains it is read at
-- once. Clients only (corrent tipo 'C'); the company is the client's (id_filial).
-- app.vw_clientes_fiscal maps it to the tenant and derives the regime. Runs as its owner, like
-- the views. To map another ERP, change the tables and columns below (docs/erp-contract.md,
-- "Optional: fiscal data").
--
-- erp-reads-optional: public.corrent_fiscal(id_corrent, contribuinte_icms, simples_nacional, consumidor_final)
-- erp-reads-optional: public.corrent(id_corrent, id_empresa, tipo)
create or replace function app.clientes_fiscal_erp()
returns table (id_filial integer, id_cliente integer, contribuinte_icms boolean, simples_nacional boolean,
               consumidor_final boolean)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $fn$
begin
  if to_regclass('public.corrent_fiscal') is null then
    return;
  end if;
  return query execute
    'select c.id_empresa::integer, f.id_corrent::integer, f.contribuinte_icms = ''S'', f.simples_nacional = ''S'',
            f.consumidor_final = ''S''
       from public.corrent_fiscal f
       join public.corrent c on c.id_corrent = f.id_corrent
      where c.tipo = ''C''';
end
$fn$;

comment on function app.clientes_fiscal_erp() is
  'Campo: the ICMS regime the ERP keeps per client (public.corrent_fiscal), or no rows when it has none; optional in the ERP contract.';
