import { describe, expect, it } from 'vitest';
import {
  clientDisplayName,
  formatAddress,
  formatBrl,
  formatCep,
  formatDateTime,
  formatMonth,
  formatPercent,
  plural,
  pluralWord,
} from './format.ts';

describe('formatBrl', () => {
  it('writes reais the Brazilian way: symbol, dot thousands, comma cents', () => {
    expect(formatBrl(1234.5)).toBe('R$\u00a01.234,50');
    expect(formatBrl(0)).toBe('R$\u00a00,00');
    expect(formatBrl(-12)).toBe('-R$\u00a012,00');
  });
});

describe('formatPercent, formatDateTime, formatMonth', () => {
  it('writes a percentage with at most two decimals and a comma', () => {
    expect(formatPercent(12.5)).toBe('12,5%');
    expect(formatPercent(7)).toBe('7%');
    expect(formatPercent(33.333)).toBe('33,33%');
  });

  it("writes an instant on São Paulo's clock, and nothing for no date", () => {
    // 02:30 UTC is 23:30 of the day before in São Paulo (UTC-3).
    expect(formatDateTime('2026-03-10T02:30:00Z')).toBe('09/03/2026, 23:30');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('names a YYYY-MM month in Portuguese', () => {
    expect(formatMonth('2026-03')).toBe('março de 2026');
    expect(formatMonth('sem mês')).toBe('sem mês');
  });
});

describe('plural, clientDisplayName, formatCep, formatAddress', () => {
  it('writes a count with its noun in the right number: the singular for one only, zero plural', () => {
    expect(plural(1, 'item', 'itens')).toBe('1 item');
    expect(plural(0, 'item', 'itens')).toBe('0 itens');
    expect(plural(2, 'cliente', 'clientes')).toBe('2 clientes');
    expect(plural(1234, 'produto', 'produtos')).toBe('1.234 produtos');
    expect(plural(1.5, 'quilo', 'quilos')).toBe('1,5 quilos');
    expect(pluralWord(1, 'recusado', 'recusados')).toBe('recusado');
    expect(pluralWord(3, 'recusado', 'recusados')).toBe('recusados');
    // Why the rule is written here: CLDR files Portuguese zero under "one".
    expect(new Intl.PluralRules('pt-BR').select(0)).toBe('one');
  });

  it('names a client by its trade name first, the legal name when the trade name is blank', () => {
    expect(clientDisplayName({ tradeName: 'Depósito de Bebidas Conquista', name: 'Maria Jordão de Jesus' })).toBe(
      'Depósito de Bebidas Conquista',
    );
    expect(clientDisplayName({ tradeName: '  ', name: 'Maria Jordão de Jesus' })).toBe('Maria Jordão de Jesus');
    expect(clientDisplayName({ tradeName: null, name: 'Mercado Boa Vista Ltda' })).toBe('Mercado Boa Vista Ltda');
    expect(clientDisplayName({ tradeName: null, name: null })).toBe('');
  });

  it('masks a CEP, alone or in an address, and leaves anything else as given', () => {
    expect(formatCep('24260761')).toBe('24260-761');
    expect(formatCep('24260-761')).toBe('24260-761');
    expect(formatCep('2426')).toBe('2426');
    expect(formatCep(null)).toBe('');
    expect(formatAddress('Rua Mário Viana 120, Niterói - RJ, CEP 24260761')).toBe(
      'Rua Mário Viana 120, Niterói - RJ, CEP 24260-761',
    );
    expect(formatAddress('Rua A 1, CEP 24260-761')).toBe('Rua A 1, CEP 24260-761');
    expect(formatAddress('Rua dos 12345678 Anjos')).toBe('Rua dos 12345678 Anjos');
    expect(formatAddress(null)).toBe('');
  });
});
