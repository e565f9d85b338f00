// Text bound for the ERP must fit LATIN1: PostgreSQL converts every statement from the
// connection's UTF8 to the database's LATIN1 and fails the whole statement on the first
// character it cannot hold ("has no equivalent in encoding LATIN1"). Everything Campo writes
// into ERP tables goes through toErpText first; the triggers then pass it through the SQL
// function app.texto_erp, which applies the same in-LATIN1 clean-up and the column width.
import anyAscii from 'any-ascii';

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/gu;
// any-ascii spells emoji as ':name:'; an ERP name has no use for them, so they are dropped.
const EMOJI_NAME = /^:[\w+-]+:$/u;

// The 27 characters Windows-1252 puts at 0x80-0x9F, by byte. Spelled out rather than read
// through TextDecoder('windows-1252'), which Node decodes as ISO-8859-1 for these bytes.
const CP1252_BYTES =
  '\u0080\u0082\u0083\u0084\u0085\u0086\u0087\u0088\u0089\u008a\u008b\u008c\u008e\u0091\u0092\u0093\u0094\u0095\u0096\u0097\u0098\u0099\u009a\u009b\u009c\u009e\u009f';
const CP1252_CHARS =
  '\u20ac\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u017d\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u017e\u0178';
const C1 = /[\u0080-\u009f]/gu;

/**
 * ERP text read as Windows-1252: old Windows ERPs store curly quotes, dashes and "€" as the
 * bytes 0x80-0x9F of their LATIN1 columns, which PostgreSQL hands over as the invisible
 * control characters U+0080-U+009F. The five bytes Windows-1252 leaves undefined stay as they are.
 */
export function readCp1252(text: string): string {
  return text.replace(C1, (ch) => {
    const i = CP1252_BYTES.indexOf(ch);
    return i < 0 ? ch : (CP1252_CHARS[i] ?? ch);
  });
}

/** Maps every character LATIN1 cannot hold to its closest ASCII (€ → EUR, — → -, “ → "), dropping emoji. */
export function toLatin1(text: string): string {
  let out = '';
  for (const ch of text) {
    if ((ch.codePointAt(0) ?? 0) <= 0xff) {
      out += ch;
      continue;
    }
    const ascii = anyAscii(ch);
    if (!EMOJI_NAME.test(ascii)) out += ascii;
  }
  return out;
}

/** True when PostgreSQL can store the text in a LATIN1 database unchanged. */
export function isLatin1(text: string): boolean {
  for (const ch of text) if ((ch.codePointAt(0) ?? 0) > 0xff) return false;
  return true;
}

/**
 * The text as the ERP receives it: LATIN1 only, no control characters, single spaces,
 * trimmed, and cut to the column width when one is given. Same rules as app.texto_erp.
 */
export function toErpText(text: string, width?: number): string {
  const clean = toLatin1(text)
    .replace(CONTROL, '')
    .replace(/[\s\u00a0]+/gu, ' ')
    .trim();
  return width === undefined ? clean : clean.slice(0, width).trimEnd();
}
