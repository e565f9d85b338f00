import type { OrderDetail } from '@campo/shared';
import { describe, expect, it } from 'vitest';
import { daysOverdue, dueText, invoicedValue, openLines } from './invoices.tsx';

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

describe("an order's invoices", () => {
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

describe("a client's open titles", () => {
  it('says how long a title is overdue, in pt-BR, or when it falls due', () => {
    expect(dueText({ vencimento: '2026-11-01', diasAtraso: 27 })).toBe('vencido há 27 dias (01/11/2026)');
    expect(dueText({ vencimento: '2026-11-27', diasAtraso: 1 })).toBe('vencido há 1 dia (27/11/2026)');
    expect(dueText({ vencimento: '2026-12-20', diasAtraso: 0 })).toBe('vence em 20/12/2026');
  });

  it('counts the days overdue from the due date on the device, across months and years', () => {
    expect(daysOverdue('2026-11-01', '2026-11-28')).toBe(27);
    expect(daysOverdue('2026-12-31', '2027-01-01')).toBe(1);
    expect(daysOverdue('2026-11-28', '2026-11-28')).toBe(0);
    expect(daysOverdue('2026-12-20', '2026-11-28')).toBe(0);
  });
});
