import type { OrderDetail } from '@campo/shared';
import { describe, expect, it } from 'vitest';
import { invoicedValue, openLines } from './invoices.tsx';

const invoice = (valor: number, cancelada = false): OrderDetail['invoices'][number] => ({
  numero: 1,
  serie: '1',
  emissao: '2026-11-20',
  valor,
  cancelada,
  itens: [],
});
const line = (seq: number, quantidade: number, quantidadeAberta: number) =>
  ({
    seq,
    quantidade,
    quantidadeAberta,
    quantidadeFaturada: quantidade - quantidadeAberta,
  }) as OrderDetail['itens'][number];

describe("the review's invoices", () => {
  it('counts only the invoices not cancelled, exact to the cent', () => {
    expect(invoicedValue([invoice(0.1), invoice(0.2), invoice(500, true)])).toBe(0.3);
    expect(invoicedValue([])).toBe(0);
  });

  it('names the open lines once something was invoiced, and none before', () => {
    const itens = [line(1, 10, 0), line(2, 4, 0.5), line(3, 6, 6)];
    expect(openLines({ invoices: [invoice(10)], itens }).map((l) => l.seq)).toEqual([2, 3]);
    expect(openLines({ invoices: [invoice(10, true)], itens })).toEqual([]);
    expect(openLines({ invoices: [], itens })).toEqual([]);
  });
});
