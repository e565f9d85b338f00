// Text bound for the ERP must fit the ERP database's encoding (LATIN1, WIN1252 or UTF8):
// PostgreSQL converts every statement from the connection's UTF8 to the database's encoding
// and fails the whole statement on the first character it cannot hold ("has no equivalent in
// encoding LATIN1"). Everything Campo writes into ERP tables goes through toErpText first, for
// that database's encoding; the triggers then pass it through the SQL function app.texto_erp,
// which applies the same clean-up and the column width inside the database.
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

/** The encodings of ERP databases Campo lives in (docs/erp-contract.md); others are refused. */
export const ERP_ENCODINGS = ['LATIN1', 'WIN1252', 'UTF8'] as const;
export type ErpEncoding = (typeof ERP_ENCODINGS)[number];

export function isErpEncoding(name: string): name is ErpEncoding {
  return (ERP_ENCODINGS as readonly string[]).includes(name);
}

/** True when a database in `encoding` stores the character as it is. */
function holds(encoding: ErpEncoding, ch: string): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  if (encoding === 'UTF8' || cp < 0x80 || (cp >= 0xa0 && cp <= 0xff)) return true;
  // WIN1252 gives 0x80-0x9F to “ ” – € and friends, so it has no C1 control characters.
  if (encoding === 'LATIN1') return cp <= 0x9f;
  return CP1252_CHARS.includes(ch);
}

/** Maps every character LATIN1 cannot hold to its closest ASCII (€ → EUR, — → -, “ → "), dropping emoji. */
export function toLatin1(text: string): string {
  return toEncoding(text, 'LATIN1');
}

/**
 * Maps every character `encoding` cannot hold to its closest ASCII (emoji dropped): LATIN1
 * as toLatin1, WIN1252 keeps “ ” – € … as well, UTF8 keeps everything but a lone surrogate,
 * which no encoding holds (it becomes U+FFFD, as the connection would send it).
 */
export function toEncoding(text: string, encoding: ErpEncoding): string {
  if (encoding === 'UTF8') return text.replace(/[\ud800-\udfff]/gu, '\ufffd');
  let out = '';
  for (const ch of text) {
    if (holds(encoding, ch)) {
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
 * The text as the ERP receives it: only what `encoding` holds (LATIN1 unless told), no
 * control characters, single spaces, trimmed, and cut to the column width (in characters,
 * as varchar(n) counts them) when one is given. Same rules as app.texto_erp.
 */
export function toErpText(text: string, width?: number, encoding: ErpEncoding = 'LATIN1'): string {
  const clean = toEncoding(text, encoding).replace(CONTROL, '').replace(/\s+/gu, ' ').trim();
  if (width === undefined) return clean;
  const chars = Array.from(clean);
  return chars.length <= width ? clean : chars.slice(0, width).join('').trimEnd();
}

/** Whether the ERP would receive `text` other than as typed (beyond white space): what the cart warns of. */
export function erpChangesText(text: string, encoding: ErpEncoding = 'LATIN1'): boolean {
  return toErpText(text, undefined, encoding) !== text.replace(/\s+/gu, ' ').trim();
}
