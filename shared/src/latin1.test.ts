import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { erpChangesText, isLatin1, toEncoding, toErpText, toLatin1 } from './latin1.ts';

describe('toLatin1', () => {
  it('keeps Portuguese letters and replaces what LATIN1 cannot hold', () => {
    expect(toErpText('Conceição & Filhos — “Ação” 🚚 €')).toBe('Conceição & Filhos - "Ação" EUR');
    expect(toLatin1('‘x’ … Œuvre ™ ł')).toBe("'x' ... Oeuvre TM l");
  });

  it('drops emoji with their modifiers and joiners', () => {
    expect(toLatin1('Zé 👍🏽 👨‍👩‍👧 ❤️!')).toBe('Zé   !');
  });

  it('always yields LATIN1 text, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(isLatin1(toLatin1(s))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves LATIN1 text as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((n) => String.fromCharCode(n)) }), (s) => {
        expect(toLatin1(s)).toBe(s);
      }),
    );
  });
});

describe('toErpText', () => {
  it('strips control characters, folds white space and cuts to the width', () => {
    expect(toErpText('  Mercado\u0007  São\u00a0\tJoão\n ')).toBe('Mercado São João');
    expect(toErpText('Distribuidora Irmãos Gonçalves', 14)).toBe('Distribuidora');
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 1, max: 60 }), (s, w) => {
        const once = toErpText(s, w);
        expect(toErpText(once, w)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(w);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('toErpText for each ERP encoding', () => {
  const TYPED = 'Conceição — “Ação” – 5 € ç ã 😀';

  it('keeps what the encoding holds and transliterates the rest', () => {
    expect(toErpText(TYPED, undefined, 'LATIN1')).toBe('Conceição - "Ação" - 5 EUR ç ã');
    expect(toErpText(TYPED, undefined, 'WIN1252')).toBe('Conceição — “Ação” – 5 € ç ã');
    expect(toErpText(TYPED, undefined, 'UTF8')).toBe(TYPED);
    expect(toEncoding('a\u0081b ‹x› ł', 'WIN1252')).toBe('ab ‹x› l');
  });

  it('changes text only where the encoding needs it', () => {
    expect(erpChangesText('Entregar — fundos', 'LATIN1')).toBe(true);
    expect(erpChangesText('Entregar — fundos', 'WIN1252')).toBe(false);
    expect(erpChangesText('Entregar 🚚', 'WIN1252')).toBe(true);
    expect(erpChangesText('Entregar 🚚  nos   fundos', 'UTF8')).toBe(false);
  });

  it('yields what the encoding holds, cut to the width in characters', () => {
    const win1252 = new RegExp(`^[\\u0020-\\u007e\\u00a0-\\u00ff${CP1252}]*$`, 'u');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 1, max: 60 }), (s, w) => {
        expect(toErpText(s, w, 'WIN1252')).toMatch(win1252);
        const utf8 = toErpText(s, w, 'UTF8');
        expect(Array.from(utf8).length).toBeLessThanOrEqual(w);
        expect(toErpText(utf8, w, 'UTF8')).toBe(utf8);
        expect(utf8).not.toMatch(/[\ud800-\udfff]/u);
      }),
      { numRuns: 2000 },
    );
  });
});

const CP1252 = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
