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
