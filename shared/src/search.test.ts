import { describe, expect, it } from 'vitest';
import { readCp1252 } from './latin1.ts';
import {
  containsPattern,
  foldSearchText,
  SEARCH_FOLD_FROM,
  SEARCH_FOLD_TO,
  SEARCH_FOLD_WIN1252,
  searchTerms,
} from './search.ts';

describe('foldSearchText', () => {
  it('drops case and accents', () => {
    expect(foldSearchText('AÇOUGUE São João')).toBe('acougue sao joao');
    expect(foldSearchText('Pão de Açúcar')).toBe(foldSearchText('PAO DE ACUCAR'));
  });

  it('keeps only what LATIN1 holds, so the search can be bound on a LATIN1 database', () => {
    expect(foldSearchText('café ☕ “bar”')).toBe('cafe  "bar"');
    for (const ch of foldSearchText('€ — 😀 ½ ß')) expect(ch.codePointAt(0)).toBeLessThanOrEqual(0xff);
  });

  it("folds every apostrophe-like character to one: D'Ávila, D´Ávila, D’Ávila, D‘Ávila, D`Ávila", () => {
    const names = ["D'Ávila", 'D´Ávila', 'D’Ávila', 'D‘Ávila', 'D`Ávila', 'D\u0092Ávila', 'D\u0091Ávila'];
    for (const name of names) expect(foldSearchText(name), name).toBe("d'avila");
  });

  it('reads ERP bytes 0x80-0x9F as Windows-1252 instead of dropping them as control characters', () => {
    // What PostgreSQL hands over for the bytes 0x93, 0x94, 0x96, 0x80 of a LATIN1 column.
    expect(foldSearchText('\u0093Caf\u00e9\u0094 \u0096 \u0080 5')).toBe('"cafe" - eur 5');
    expect(readCp1252('\u008aão \u009c \u0081')).toBe('Šão œ \u0081');
  });

  it('gives translate() alphabets of the same length, one letter for one', () => {
    expect([...SEARCH_FOLD_FROM]).toHaveLength([...SEARCH_FOLD_TO].length);
    expect(SEARCH_FOLD_FROM).toContain('Ç');
    expect(SEARCH_FOLD_TO[SEARCH_FOLD_FROM.indexOf('Ç')]).toBe('c');
  });
});

describe('searchTerms', () => {
  it('splits words and gives those with digits their unmasked form', () => {
    expect(searchTerms('  Padaria  12.345.678/0001-95 ')).toEqual([
      { text: 'padaria', compact: null },
      { text: '12.345.678/0001-95', compact: '12345678000195' },
    ]);
    expect(searchTerms('beb00001')).toEqual([{ text: 'beb00001', compact: 'BEB00001' }]);
    expect(searchTerms(undefined)).toEqual([]);
    expect(searchTerms('a b c d e f g h i j')).toHaveLength(8);
  });
});

describe('containsPattern', () => {
  it('takes LIKE wildcards literally', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});

describe('translate() alphabets of a WIN1252 or UTF8 database', () => {
  it('are those of LATIN1 without the bytes Windows-1252 leaves undefined', () => {
    const { from, to } = SEARCH_FOLD_WIN1252;
    expect([...from]).toHaveLength([...to].length);
    expect(from).toContain('\u0092');
    expect(readCp1252('\u0092')).toBe('’');
    expect(from).not.toContain('\u0081');
    expect(to[from.indexOf('\u0092')]).toBe("'");
    expect(to[from.indexOf('Ç')]).toBe('c');
  });
});
