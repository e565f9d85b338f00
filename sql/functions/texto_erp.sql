-- app.texto_erp(texto, largura): the one gate for text that Campo writes into the ERP.
--
-- Why: an approval or a new client must never fail on "value too long" or on stray
-- characters the ERP's screens and reports cannot show. Both triggers pass every text
-- column through here. The text is already LATIN1 when it arrives (the server
-- transliterates with toErpText in shared/src/latin1.ts, which applies the same rules), so
-- this only cleans and cuts, inside LATIN1:
--   * tab, line feed and carriage return become spaces; the other control characters
--     (C0, DEL and the C1 range 0x80-0x9F) are removed;
--   * no-break space (0xA0) becomes a space, and runs of spaces become one;
--   * leading and trailing spaces are trimmed;
--   * the result is cut to largura characters (LATIN1 is one byte per character, so the
--     ERP's varchar(n) holds exactly n), and trimmed again where the cut left a space.
-- null stays null; largura null or <= 0 means no cut. Reads and writes no ERP table.
create or replace function app.texto_erp(texto text, largura integer)
returns text
language sql
immutable
parallel safe
as $fn$
  select case
           when largura is null or largura <= 0 then limpo
           else rtrim(left(limpo, largura), ' ')
         end
    from (
      select btrim(
               regexp_replace(
                 regexp_replace(texto, '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]', '', 'g'),
                 '[\t\n\r \xa0]+', ' ', 'g'),
               ' ') as limpo
    ) as t
$fn$;

comment on function app.texto_erp(text, integer) is
  'Campo: makes LATIN1 text safe for an ERP column: control characters out, spaces collapsed, trimmed, cut to largura.';
