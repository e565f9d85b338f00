// Fake but well-formed Brazilian identities: people, shop names, addresses, phones, e-mails
// and tax ids with valid check digits.
import { cnpjCheckDigits, cpfCheckDigits } from '@campo/shared';
import {
  type City,
  COMPANY_SUFFIXES,
  COMPLEMENTS,
  DISTRICTS,
  EMAIL_PROVIDERS,
  FIRST_NAMES_F,
  FIRST_NAMES_M,
  OWNER_COMPANY_SUFFIXES,
  PARTICLE_SURNAMES,
  SHOP_KINDS,
  SHOP_NAMES,
  STREET_NAMES,
  STREET_TYPES,
  SUPPLIER_KINDS,
  SURNAMES,
} from './names.ts';
import type { Rng } from './prng.ts';

export interface Person {
  first: string;
  last: string;
  full: string;
}

export function person(rng: Rng): Person {
  const first = rng.chance(0.5) ? rng.pick(FIRST_NAMES_F) : rng.pick(FIRST_NAMES_M);
  const middle = rng.chance(0.5) ? ` ${rng.pick(SURNAMES)}` : '';
  const surname: string = rng.chance(0.3) ? rng.pick(PARTICLE_SURNAMES) : rng.pick(SURNAMES);
  const last = surname.slice(surname.lastIndexOf(' ') + 1);
  return { first, last, full: `${first}${middle} ${surname}` };
}

/** Lower-case ASCII for e-mail addresses and domains: "Conceição" -> "conceicao". */
export function slug(text: string, separator = ''): string {
  const ascii = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  return ascii
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join(separator);
}

export function personalEmail(rng: Rng, p: Person): string {
  return `${slug(p.first)}.${slug(p.last)}${rng.chance(0.4) ? rng.int(1, 99) : ''}@${rng.pick(EMAIL_PROVIDERS)}`;
}

/** Landline "(11) 3456-7890" or mobile "(11) 98765-4321". */
export function phone(rng: Rng, ddd: string, mobile: boolean): string {
  return mobile
    ? `(${ddd}) 9${rng.int(6, 9)}${rng.digits(3)}-${rng.digits(4)}`
    : `(${ddd}) ${rng.int(2, 3)}${rng.digits(3)}-${rng.digits(4)}`;
}

export interface Address {
  endereco: string;
  numero: string;
  complemento: string | null;
  bairro: string;
  cidade: string;
  uf: string;
  cep: string;
  ddd: string;
}

export function address(rng: Rng, city: City): Address {
  return {
    endereco: `${rng.weighted(STREET_TYPES)} ${rng.pick(STREET_NAMES)}`,
    numero: rng.chance(0.03) ? 'S/N' : String(rng.int(1, 3999)),
    complemento: rng.chance(0.2) ? rng.pick(COMPLEMENTS) : null,
    bairro: rng.pick(DISTRICTS),
    cidade: city.name,
    uf: city.uf,
    cep: `${String(rng.int(city.cep[0], city.cep[1])).padStart(5, '0')}${rng.digits(3)}`,
    ddd: city.ddd,
  };
}

export function shopName(rng: Rng, owner: Person): { razaoSocial: string; nomeFantasia: string } {
  const kind = rng.pick(SHOP_KINDS);
  const name = rng.chance(0.25) ? `${owner.first}` : rng.pick(SHOP_NAMES);
  const fantasia = rng.chance(0.25) ? `${kind} ${connector(name)}${name}` : `${kind} ${name}`;
  const razao = rng.chance(0.3)
    ? `${owner.full} ${rng.weighted(OWNER_COMPANY_SUFFIXES)}`
    : `${fantasia} ${rng.weighted(COMPANY_SUFFIXES)}`;
  return { razaoSocial: razao.slice(0, 100), nomeFantasia: fantasia.slice(0, 60) };
}

/** "Bar do João", "Mercearia da Conceição": the preposition a person's shop name takes. */
function connector(name: string): string {
  if (/^(São|Santo|Santa|Nossa|do |da |Irmãos|Família|Dois|Três)/.test(name)) return '';
  return /a$/.test(name) ? 'da ' : 'do ';
}

export function supplierName(rng: Rng): { razaoSocial: string; nomeFantasia: string } {
  const fantasia = `${rng.pick(SHOP_NAMES)} ${rng.pick(SUPPLIER_KINDS)}`;
  return {
    razaoSocial: `${fantasia} ${rng.weighted(COMPANY_SUFFIXES)}`.slice(0, 100),
    nomeFantasia: fantasia.slice(0, 60),
  };
}

/** A bijection of [0, modulus) for an odd multiplier not divisible by 5: spreads ids over the range. */
function scramble(n: number, modulus: number, salt: number): number {
  // n stays below 1e9 and salt below 2^32, so the product is an exact integer in a double.
  return (n * 7_654_321 + salt) % modulus;
}

/** A CNPJ unique to `id` for a given salt: root from the id, then branch number and check digits. */
export function cnpj(id: number, salt: number, branch = 1): string {
  const base = `${String(scramble(id, 100_000_000, salt)).padStart(8, '0')}${String(branch).padStart(4, '0')}`;
  return base + cnpjCheckDigits(base);
}

/** A CPF unique to `id` (below 500 million) for a given salt; never one of the repeated-digit numbers. */
export function cpf(id: number, salt: number): string {
  let n = id;
  let base = String(scramble(n, 1_000_000_000, salt)).padStart(9, '0');
  while (/^(\d)\1*$/.test(base)) {
    // ids stay far below 500 million, so the shifted id belongs to no other entity
    n += 500_000_000;
    base = String(scramble(n, 1_000_000_000, salt)).padStart(9, '0');
  }
  return base + cpfCheckDigits(base);
}

/** EAN-13 in the Brazilian GS1 range (789), unique per product id. */
export function ean13(id: number, salt: number): string {
  const body = `789${String(scramble(id, 1_000_000_000, salt)).padStart(9, '0')}`;
  return body + ean13CheckDigit(body);
}

/** GS1 check digit of a 12-digit EAN-13 body: weights 1 and 3 alternating from the left. */
export function ean13CheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
  return String((10 - (sum % 10)) % 10);
}

/** State registration: digits only, the length most states use; people are usually exempt. */
export function inscricaoEstadual(rng: Rng, pessoa: 'F' | 'J'): string {
  if (pessoa === 'F') return 'ISENTO';
  return rng.digits(rng.pick([9, 12]));
}
