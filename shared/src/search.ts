// Text search that ignores case and accents, the same on the server (over the LATIN1 ERP, in
// SQL) and on the device (over the local store). The ERP database runs with the C locale, where
// lower() folds only ASCII letters, so accented letters are folded by translate() with the two
// alphabets below. They are derived from foldSearchText itself, which keeps the SQL and the
// JavaScript folds equal for every LATIN1 character (a database test checks all of them).
import { normalizeDocument } from './documents.ts';
import { readCp1252, toLatin1 } from './latin1.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters never help a search
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/gu;

// What people and ERPs type for an apostrophe: D'Ávila, D´Ávila, D’Ávila, D`Ávila are one name.
const APOSTROPHES = /[`\u00b4\u2018\u2019\u201b\u2032\u02bc]/gu;

/**
 * Lower case, without accents, LATIN1 only: "AÇOUGUE São João" → "acougue sao joao". ERP bytes
 * 0x80-0x9F are read as Windows-1252 first, and every apostrophe-like character becomes "'".
 */
export function foldSearchText(text: string): string {
  const bare = readCp1252(text)
    .replace(APOSTROPHES, "'")
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC');
  return toLatin1(bare).replace(CONTROL, ' ').toLowerCase();
}

function foldAlphabets(): { from: string; to: string } {
  let from = '';
  let to = '';
  // The grave accent, the C1 range (Windows-1252 in ERP text) and the upper half of LATIN1;
  // a character that folds to several (€ → eur) cannot be in translate(), and stays as is in SQL.
  for (const code of [0x60, ...Array.from({ length: 0x80 }, (_, i) => 0x80 + i)]) {
    const ch = String.fromCharCode(code);
    const folded = foldSearchText(ch);
    if (folded !== ch && folded.length === 1) {
      from += ch;
      to += folded;
    }
  }
  return { from, to };
}

const ALPHABETS = foldAlphabets();
/** translate(lower(column), SEARCH_FOLD_FROM, SEARCH_FOLD_TO) is foldSearchText in SQL, in a LATIN1 database. */
export const SEARCH_FOLD_FROM = ALPHABETS.from;
export const SEARCH_FOLD_TO = ALPHABETS.to;

/**
 * The same alphabets for a WIN1252 or UTF8 database, whose ERP text holds “ ’ Š as such, not
 * as the C1 characters of a LATIN1 column. `from` is spelled as Windows-1252 bytes (one
 * character U+0000-U+00FF per byte), to be bound as bytea and read with convert_from(…,
 * 'WIN1252'): SEARCH_FOLD_FROM less the five bytes Windows-1252 leaves undefined, which no
 * such database holds and convert_from would refuse. `to` keeps the same positions.
 */
export const SEARCH_FOLD_WIN1252 = ((): { from: string; to: string } => {
  let from = '';
  let to = '';
  const target = [...ALPHABETS.to];
  [...ALPHABETS.from].forEach((ch, i) => {
    const cp = ch.codePointAt(0) as number;
    if (cp >= 0x80 && cp <= 0x9f && readCp1252(ch) === ch) return;
    from += ch;
    to += target[i] ?? '';
  });
  return { from, to };
})();

export const SEARCH_MAX_TERMS = 8;

export interface SearchTerm {
  /** The folded word, to find inside folded text columns. */
  text: string;
  /** The word as a tax id or code without its mask (digits and capital letters), when it has a digit. */
  compact: string | null;
}

/**
 * The words of a search box. Every word must match some searched column (a client "padaria
 * recife" is a padaria in Recife). A word with digits also matches documents and codes with
 * or without their mask: "12.345.678/0001-90" finds 12345678000190.
 */
export function searchTerms(q: string | undefined): SearchTerm[] {
  if (!q) return [];
  const words = foldSearchText(q).split(/\s+/u).filter(Boolean).slice(0, SEARCH_MAX_TERMS);
  return words.map((text) => {
    const compact = normalizeDocument(text);
    return { text, compact: /^[0-9A-Z]+$/.test(compact) && /\d/.test(compact) ? compact : null };
  });
}

/** A LIKE pattern that finds `text` anywhere, with LIKE's own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
