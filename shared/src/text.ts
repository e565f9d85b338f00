// Lossless text for any ERP database (LATIN1, WIN1252 or UTF8). Text that only Campo reads
// (ticket subjects and messages, funnel prospect names and notes) must come back exactly as
// the user typed it, emoji included, but PostgreSQL converts every statement to the
// database's encoding and fails the whole statement on a character that encoding lacks. So
// such text is stored escaped, in the one form all three encodings hold: ASCII and the
// printable LATIN1 letters stay themselves (searchable with LIKE and readable in psql), and
// every other character (U+0080-U+009F, which WIN1252 spends on “ ” – €, everything beyond
// U+00FF, and NUL, which no PostgreSQL text holds) becomes `¤<hex code point>;`. The marker
// `¤` (U+00A4, almost never typed) is itself doubled. One form everywhere keeps searches and
// stored rows alike on every encoding; decodeLossless also reads rows written before the C1
// range was escaped. Text bound for the ERP is made to fit instead (latin1.ts): the ERP never decodes.

const MARK = '\u00a4';

/** Escapes `text` to printable LATIN1 that every ERP encoding holds; decodeLossless gives it back exactly. */
export function encodeLossless(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (ch === MARK) out += MARK + MARK;
    else if (cp === 0 || (cp >= 0x80 && cp <= 0x9f) || cp > 0xff) out += `${MARK}${cp.toString(16)};`;
    else out += ch;
  }
  return out;
}

/** The text encodeLossless was given. A malformed escape (not written by Campo) is kept as it is. */
export function decodeLossless(stored: string): string {
  return stored.replace(/\u00a4(\u00a4|([0-9a-f]{1,6});)/g, (whole, _m: string, hex: string | undefined) => {
    if (hex === undefined) return MARK;
    const cp = Number.parseInt(hex, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });
}

/** A LIKE pattern matching stored (escaped) text that contains `text`, case as given. */
export function losslessLikePattern(text: string): string {
  return `%${encodeLossless(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
