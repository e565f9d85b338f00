// Brazilian tax ids: CPF (people, 11 digits) and CNPJ (companies, 14 characters). The
// fixture generator and the API both use these rules, so a document the generator writes is
// one the API accepts.
//
// CNPJ follows the Receita Federal's alphanumeric layout (IN RFB 2.229/2024, issued from
// July 2026): the 12-character root and branch may hold digits or capital letters, each
// character weighs its ASCII code minus 48, and the two check characters stay digits.
// For an all-digit CNPJ that is exactly the classic modulo-11 rule.

const CPF_LENGTH = 11;
const CNPJ_LENGTH = 14;

/** Strips the usual mask characters ('.', '-', '/', spaces) and upper-cases letters. */
export function normalizeDocument(value: string): string {
  return value.replace(/[.\-/\s]/g, '').toUpperCase();
}

function mod11Digit(sum: number): number {
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

// Sequences like 000.000.000-00 or 11.111.111/1111-11 pass the arithmetic but are not
// documents the Receita issues; every validator in the market rejects them.
function isRepeated(value: string): boolean {
  return /^(.)\1*$/.test(value);
}

/** The two check digits of a CPF, given its first nine digits. */
export function cpfCheckDigits(base: string): string {
  if (!/^\d{9}$/.test(base)) throw new RangeError(`a CPF base has 9 digits, got "${base}"`);
  const digits = [...base].map(Number);
  const first = mod11Digit(digits.reduce((sum, d, i) => sum + d * (10 - i), 0));
  digits.push(first);
  const second = mod11Digit(digits.reduce((sum, d, i) => sum + d * (11 - i), 0));
  return `${first}${second}`;
}

/** Whether the value (masked or not) is a CPF with valid check digits. */
export function isValidCpf(value: string): boolean {
  const cpf = normalizeDocument(value);
  if (!/^\d{11}$/.test(cpf) || isRepeated(cpf)) return false;
  return cpfCheckDigits(cpf.slice(0, 9)) === cpf.slice(9);
}

const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

function cnpjValue(char: string): number {
  return char.charCodeAt(0) - 48;
}

/** The two check digits of a CNPJ, given its twelve-character root and branch (digits or A-Z). */
export function cnpjCheckDigits(base: string): string {
  if (!/^[0-9A-Z]{12}$/.test(base)) throw new RangeError(`a CNPJ base has 12 digits or capital letters, got "${base}"`);
  const values = [...base].map(cnpjValue);
  const first = mod11Digit(values.reduce((sum, v, i) => sum + v * (CNPJ_WEIGHTS[i + 1] ?? 0), 0));
  values.push(first);
  const second = mod11Digit(values.reduce((sum, v, i) => sum + v * (CNPJ_WEIGHTS[i] ?? 0), 0));
  return `${first}${second}`;
}

/** Whether the value (masked or not) is a CNPJ, numeric or alphanumeric, with valid check digits. */
export function isValidCnpj(value: string): boolean {
  const cnpj = normalizeDocument(value);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || isRepeated(cnpj)) return false;
  return cnpjCheckDigits(cnpj.slice(0, 12)) === cnpj.slice(12);
}

export type DocumentKind = 'cpf' | 'cnpj';

/** Which kind of valid document the value is, or null when it is neither. */
export function documentKind(value: string): DocumentKind | null {
  if (isValidCpf(value)) return 'cpf';
  if (isValidCnpj(value)) return 'cnpj';
  return null;
}

/** 12345678909 -> 123.456.789-09; anything that is not 11 characters comes back as given. */
export function formatCpf(value: string): string {
  const cpf = normalizeDocument(value);
  if (cpf.length !== CPF_LENGTH) return value;
  return `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
}

/** 11222333000181 -> 11.222.333/0001-81; anything that is not 14 characters comes back as given. */
export function formatCnpj(value: string): string {
  const cnpj = normalizeDocument(value);
  if (cnpj.length !== CNPJ_LENGTH) return value;
  return `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
}
