import { describe, expect, it } from 'vitest';
import { brOfIso, dateProblem, isoOfBr, maskBr, normalizeDateText } from './date-field.tsx';

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

  it('takes a pasted ISO or dotted date as the day it is, not as digits to mask', () => {
    // Masked digit by digit, 2027-01-27 became "20/27/0127" (issue #41).
    expect(normalizeDateText('2027-01-27', true)).toBe('27/01/2027');
    expect(normalizeDateText('2027-01-27', false)).toBe('27/01/2027');
    expect(normalizeDateText(' 2027-1-7T10:30:00Z ', true)).toBe('07/01/2027');
    expect(normalizeDateText('27.01.2027', true)).toBe('27/01/2027');
    expect(normalizeDateText('27-01-2027', true)).toBe('27/01/2027');
    expect(normalizeDateText('1/2/2027', true)).toBe('01/02/2027');
    expect(normalizeDateText('15122026', false)).toBe('15/12/2026');
  });

  it('completes a two-digit year as 20aa only when pasted or left, never while typing', () => {
    expect(normalizeDateText('27/01/27', true)).toBe('27/01/2027');
    expect(normalizeDateText('27.1.27', true)).toBe('27/01/2027');
    // "15/12/20" on the way to 15/12/2026 stays as typed.
    expect(normalizeDateText('15/12/20', false)).toBe('15/12/20');
    expect(normalizeDateText('15/12/202', false)).toBe('15/12/202');
  });

  it('says in pt-BR why a value is not a date', () => {
    expect(dateProblem('')).toBeNull();
    expect(dateProblem('2027-01-27')).toBeNull();
    expect(dateProblem('29/02/2028')).toBeNull();
    expect(dateProblem('31/02/2027')).toBe('O dia 31 não existe em fevereiro de 2027, que vai até o dia 28.');
    expect(dateProblem('00/01/2027')).toBe('O dia 00 não existe em janeiro de 2027, que vai até o dia 31.');
    expect(dateProblem('00/13/2027')).toBe('O mês 13 não existe: use dd/mm/aaaa, como 15/12/2026.');
    expect(dateProblem('10/00/2027')).toBe('O mês 00 não existe: use dd/mm/aaaa, como 15/12/2026.');
    expect(dateProblem('10/10/0127')).toBe('O ano 0127 está fora do calendário: use dd/mm/aaaa, como 15/12/2026.');
    expect(dateProblem('15/12')).toBe('Data incompleta: use dd/mm/aaaa, como 15/12/2026.');
    expect(dateProblem('27/01/27')).toBe('Data incompleta: use dd/mm/aaaa, como 15/12/2026.');
  });
});
