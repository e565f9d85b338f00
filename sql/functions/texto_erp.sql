-- app.texto_erp(texto, largura): the one gate for text that Campo writes into the ERP.
--
-- Why: an approval or a new client must never fail on "value too long" or on stray
-- characters the ERP's screens and reports cannot show. Both triggers pass every text
-- column through here. The text already fits the database's encoding when it arrives (the
-- server makes it fit with toErpText in shared/src/latin1.ts, which applies the same rules),
-- so this only cleans and cuts, inside that encoding:
--   * tab, line feed and carriage return become spaces; the other control characters
--     (C0, DEL and, in LATIN1 and UTF8, the C1 range U+0080-U+009F) are removed. In a
--     WIN1252 database the bytes 0x80-0x9F are curly quotes, dashes and the euro sign,
--     and a regular expression there sees bytes: they are kept;
--   * no-break space (and in UTF8 the other Unicode spaces JavaScript's \s knows) becomes a
--     space, and runs of spaces become one;
--   * leading and trailing spaces are trimmed;
--   * the result is cut to largura characters (varchar(n) counts characters in every
--     encoding), and trimmed again where the cut left a space.
-- null stays null; largura null or <= 0 means no cut. Reads and writes no ERP table.
-- Immutable although it asks the database's encoding: a database never changes encoding.
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
                 regexp_replace(texto, p.controle, '', 'g'),
                 p.espacos, ' ', 'g'),
               ' ') as limpo
        from (
          select case getdatabaseencoding()
                   when 'WIN1252' then '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]'
                   else '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]'
                 end as controle,
                 case getdatabaseencoding()
                   when 'UTF8' then '[\t\n\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+'
                   else '[\t\n\r \xa0]+'
                 end as espacos
        ) as p
    ) as t
$fn$;

comment on function app.texto_erp(text, integer) is
  'Campo: makes text safe for an ERP column in the database''s encoding: control characters out, spaces collapsed, trimmed, cut to largura.';
