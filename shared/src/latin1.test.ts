import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLatin1, toErpText, toLatin1 } from './latin1.ts';

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
