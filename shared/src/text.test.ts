import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLossless, encodeLossless } from './text.ts';

describe('lossless text for every ERP encoding', () => {
  it('keeps LATIN1 as it is and escapes the rest', () => {
    expect(encodeLossless('Conceição & Filhos')).toBe('Conceição & Filhos');
    expect(encodeLossless('a — b 🚚')).toBe('a ¤2014; b ¤1f69a;');
    expect(encodeLossless('preço ¤ 10')).toBe('preço ¤¤ 10');
    expect(encodeLossless('x\u0000y')).toBe('x¤0;y');
    // WIN1252 holds no U+0080-U+009F (its bytes 0x80-0x9F are “ ” – €): escaped as well.
    expect(encodeLossless('a\u0080\u009fb')).toBe('a¤80;¤9f;b');
  });

  it('gives back exactly what was typed, whatever it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const stored = encodeLossless(s);
        // What LATIN1, WIN1252 and UTF8 all hold: ASCII and printable LATIN1, no NUL.
        const held = Array.from(stored).every((ch) => {
          const cp = ch.codePointAt(0) as number;
          return cp > 0 && (cp < 0x80 || (cp >= 0xa0 && cp <= 0xff));
        });
        expect(held).toBe(true);
        expect(decodeLossless(stored)).toBe(s);
      }),
      { numRuns: 3000 },
    );
  });

  it('round-trips text made of marker, hex digits and emoji', () => {
    const unit = fc.constantFrom('¤', ';', 'a', 'f', '1', '0', '😀', '—', '\u0000', '\ud800');
    fc.assert(
      fc.property(fc.string({ unit }), (s) => {
        expect(decodeLossless(encodeLossless(s))).toBe(s);
      }),
      { numRuns: 3000 },
    );
  });
});
