// The order PDF with long values: every line of text is recorded with the box it covers (its
// measured width, the font size's height around the baseline), and no two boxes on a page may
// meet, nor any leave the margins. "Pedido no ERP:" once ran into its number (issue #41).
import type { Company, Order } from '@campo/shared';
import { jsPDF } from 'jspdf';
import { describe, expect, it } from 'vitest';
import { drawOrder, MARGIN, PAGE_H, PAGE_W } from './order-pdf.ts';

interface Box {
  page: number;
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

const MM_PER_PT = 25.4 / 72;

function recorded(order: Order, company: Company | null): Box[] {
  const doc = new jsPDF({ unit: 'mm', format: 'a4' });
  const boxes: Box[] = [];
  const text = doc.text.bind(doc);
  doc.text = ((value: string | string[], x: number, y: number, options?: { align?: string }) => {
    // One line per call: an array would hide the lines' positions from this check.
    expect(typeof value).toBe('string');
    const w = doc.getTextWidth(value as string);
    const size = doc.getFontSize() * MM_PER_PT;
    const left = options?.align === 'right' ? x - w : x;
    boxes.push({
      page: doc.getCurrentPageInfo().pageNumber,
      text: value as string,
      left,
      right: left + w,
      top: y - 0.75 * size,
      bottom: y + 0.22 * size,
    });
    return text(value, x, y, options as never);
  }) as typeof doc.text;
  drawOrder(doc, order, company, null);
  return boxes.filter((b) => b.text.trim() !== '');
}

const long = (word: string, n: number) => Array.from({ length: n }, () => word).join(' ');

const company: Company = {
  idEmpresa: 1,
  name: `Distribuidora ${long('Atacadista', 8)} Ltda`,
  tradeName: 'Distribuidora',
  cnpj: '11222333000181',
  stateRegistration: '123.456.789.110',
  address: {
    street: `${long('Avenida', 10)}, 12345, ${long('Galpão', 6)}`,
    city: 'São José dos Campos',
    uf: 'SP',
    cep: '12345678',
  },
  phone: '(12) 3456-7890',
  logoBase64: null,
  metaPositivacaoDia: null,
} as unknown as Company;

function order(lines: number, big: number): Order {
  return {
    id: 1,
    numPedSar: 1234567,
    status: 'approved',
    codVendedor: 7,
    idCliente: 10,
    nomeCliente: `Supermercado ${long('Comercial', 12)} Eireli`,
    valorTotal: big * lines,
    criadoEm: '2026-11-20T10:00:00.000Z',
    credit: null,
    cnpjCpfCliente: '11222333000181',
    endEntrega: `Rodovia ${long('Presidente', 14)}, km 123, Galpão 4 — Bairro Industrial — Campinas/SP`,
    idPauta: 3,
    observacao: long('Entregar somente pela manhã, portão lateral, falar com o Sr. Joaquim.', 40),
    condicaoPagamento: { id: 1, descricao: long('30/60/90/120/150/180 dias', 5) },
    valorBruto: big * lines * 1.1,
    valorDesconto: -big,
    motivoRejeicao: null,
    decididoPor: null,
    nomeDecididoPor: null,
    decididoEm: null,
    erpIdPedido: 99,
    numPedidoErp: 2147483647,
    erpSituacao: 'aberto',
    itens: Array.from({ length: lines }, (_, i) => ({
      seq: i + 1,
      idProduto: i + 1,
      codProduto: `PRODUTO-${i}-ABCDEFGHIJKLMNOP`,
      descricao: `${long('Biscoito recheado sabor chocolate com morango', 3)} ${'X'.repeat(90)}`,
      categoria: null,
      quantidade: 1234567.891,
      precoTabela: big,
      precoUnitario: big * 0.9,
      descontoPercent: 12.345,
      tetoPercent: null,
      regra: null,
      idPauta: 3,
      valorTotal: big * 1234567,
    })),
    historico: [],
  } as unknown as Order;
}

function expectLaidOut(boxes: Box[]) {
  const eps = 0.01;
  for (const b of boxes) {
    expect(b.left, b.text).toBeGreaterThanOrEqual(MARGIN - eps);
    expect(b.right, b.text).toBeLessThanOrEqual(PAGE_W - MARGIN + eps);
    expect(b.top, b.text).toBeGreaterThanOrEqual(MARGIN - eps);
    expect(b.bottom, b.text).toBeLessThanOrEqual(PAGE_H - MARGIN + eps);
  }
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const meet = a.page === b.page && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      expect(meet, `"${a.text}" meets "${b.text}"`).toBe(false);
    }
  }
}

describe('the order PDF', () => {
  it('keeps every label apart from its value and every value inside the page, however long', () => {
    const boxes = recorded(order(30, 98765432.1), company);
    expectLaidOut(boxes);
    // Long enough to need more than one page, all of it drawn.
    expect(Math.max(...boxes.map((b) => b.page))).toBeGreaterThan(1);
    const label = boxes.find((b) => b.text === 'Pedido no ERP:');
    const value = boxes.find((b) => b.text === '2147483647');
    expect(label && value && label.right < value.left).toBe(true);
    expect(boxes.filter((b) => b.text === 'Total').length).toBeGreaterThan(0);
  });

  it('lays out a short order on one page too', () => {
    const short = order(1, 10);
    const boxes = recorded({ ...short, observacao: null, endEntrega: null, numPedidoErp: null }, null);
    expectLaidOut(boxes);
    expect(Math.max(...boxes.map((b) => b.page))).toBe(1);
  });

  it('prints curly quotes, dashes and the euro sign as typed, an emoji dropped', () => {
    const short = order(1, 10);
    const typed = { ...short, nomeCliente: 'Mercado “Premium” – 5 € 😀', observacao: 'Entregar — “manhã” ☀️' };
    const texts = recorded(typed, null).map((b) => b.text);
    expect(texts.some((t) => t.includes('Mercado “Premium” – 5 €'))).toBe(true);
    expect(texts.some((t) => t.includes('Entregar — “manhã”'))).toBe(true);
    expect(texts.join(' ')).not.toMatch(/[\u{1F300}-\u{1FAFF}\u2600-\u27BF]/u);
  });
});
