import { describe, expect, it } from 'vitest';
import { encodeCopyValue } from './copy.ts';

describe('COPY text encoding', () => {
  it('writes null as \\N and numbers as they print', () => {
    expect(encodeCopyValue(null)).toBe('\\N');
    expect(encodeCopyValue(12)).toBe('12');
    expect(encodeCopyValue('12.50')).toBe('12.50');
  });

  it('escapes the separators and the backslash, and keeps accents', () => {
    expect(encodeCopyValue('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(encodeCopyValue('Conceição')).toBe('Conceição');
    expect(encodeCopyValue('\\N')).toBe('\\\\N');
  });
});
