import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLatin1 } from './latin1.ts';
import { decodeLossless, encodeLossless } from './text.ts';

describe('lossless LATIN1 text', () => {
  it('keeps LATIN1 as it is and escapes the rest', () => {
    expect(encodeLossless('Conceição & Filhos')).toBe('Conceição & Filhos');
    expect(encodeLossless('a — b 🚚')).toBe('a ¤2014; b ¤1f69a;');
    expect(encodeLossless('preço ¤ 10')).toBe('preço ¤¤ 10');
    expect(encodeLossless('x\u0000y')).toBe('x¤0;y');
  });

  it('gives back exactly what was typed, whatever it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const stored = encodeLossless(s);
        expect(isLatin1(stored)).toBe(true);
        expect(stored.includes('\u0000')).toBe(false);
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
