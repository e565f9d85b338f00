import { describe, expect, it } from 'vitest';
import { brOfIso, isoOfBr, maskBr } from './date-field.tsx';

describe('the pt-BR date field', () => {
  it('masks digits as dd/mm/aaaa while typing', () => {
    expect(maskBr('1')).toBe('1');
    expect(maskBr('151')).toBe('15/1');
    expect(maskBr('15122026')).toBe('15/12/2026');
    expect(maskBr('15/12/2026')).toBe('15/12/2026');
    expect(maskBr('15a12b20269')).toBe('15/12/2026');
  });

  it('turns a real date into ISO and refuses the rest', () => {
    expect(isoOfBr('15/12/2026')).toBe('2026-12-15');
    expect(isoOfBr('29/02/2028')).toBe('2028-02-29');
    expect(isoOfBr('29/02/2026')).toBeNull();
    expect(isoOfBr('31/04/2026')).toBeNull();
    expect(isoOfBr('15/13/2026')).toBeNull();
    expect(isoOfBr('15/12/26')).toBeNull();
  });

  it('shows an ISO value as dd/mm/aaaa', () => {
    expect(brOfIso('2026-01-05')).toBe('05/01/2026');
    expect(brOfIso('')).toBe('');
  });
});
