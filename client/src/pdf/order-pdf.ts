// The PDF of an order, with the company's letterhead, for the representative to send to the
// client. jsPDF is loaded only here, and this module only when someone shares an order, so the
// app's first load does not carry it. Its built-in fonts write WinAnsi (Windows-1252, which jsPDF
// maps “ ” – — € … to), so the text is brought to Windows-1252 first: an emoji must not turn
// into garbage on the client's copy.
import { type Company, type Order, toEncoding } from '@campo/shared';
import { formatAddress } from '@campo/shared/format';
import type { jsPDF } from 'jspdf';
import {
  companyAddress,
  formatDateTime,
  formatDocument,
  formatMoney,
  formatPercent,
  formatQuantity,
  STATUS_LABEL,
} from '../kit/order-format.ts';

export const PAGE_W = 210;
export const PAGE_H = 297;
export const MARGIN = 15;
/** A font size in points as millimetres, the unit the page is laid out in. */
const MM_PER_PT = 25.4 / 72;
const LOGO_BOX = { w: 40, h: 20 };

/** Any logo the company uploaded (PNG, JPEG or WebP) as a PNG jsPDF can embed, with its size. */
async function logoAsPng(dataUrl: string): Promise<{ data: string; w: number; h: number } | null> {
  const img = new Image();
  img.src = dataUrl;
  try {
    await img.decode();
  } catch {
    return null;
  }
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const ctx = canvas.getContext('2d');
  if (!ctx || !canvas.width || !canvas.height) return null;
  ctx.drawImage(img, 0, 0);
  const scale = Math.min(LOGO_BOX.w / canvas.width, LOGO_BOX.h / canvas.height);
  return { data: canvas.toDataURL('image/png'), w: canvas.width * scale, h: canvas.height * scale };
}

export async function orderPdf(order: Order, company: Company | null): Promise<Blob> {
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ unit: 'mm', format: 'a4' });
  const logo = company?.logoBase64 ? await logoAsPng(company.logoBase64) : null;
  drawOrder(doc, order, company, logo);
  return doc.output('blob');
}

/**
 * Lays the order out on `doc`. Nothing is placed at a fixed offset from a label: labels and
 * columns are measured with the font they are drawn in, and every value that can be long (a
 * client's name, an address, an observation, a description, a big total) wraps inside its
 * box, so nothing runs into its neighbour or off the page (issue #41). Each line of text is one
 * `doc.text` call, which the test records to check exactly that.
 */
export function drawOrder(
  doc: jsPDF,
  order: Order,
  company: Company | null,
  logo: { data: string; w: number; h: number } | null,
): void {
  const t = (s: string | null | undefined) => toEncoding(s ?? '', 'WIN1252');
  const width = (s: string) => doc.getTextWidth(s);
  const wrap = (s: string, w: number) => doc.splitTextToSize(s, w) as string[];
  const bottom = PAGE_H - MARGIN;
  let y = MARGIN;
  /** A new page when `height` more does not fit; the first baseline sits a line below the margin. */
  const room = (height: number, step: number) => {
    if (y + height <= bottom) return false;
    doc.addPage();
    y = MARGIN + step;
    return true;
  };

  let textX = MARGIN;
  if (logo) {
    doc.addImage(logo.data, 'PNG', MARGIN, y, logo.w, logo.h);
    textX = MARGIN + LOGO_BOX.w + 5;
  }
  const headW = PAGE_W - MARGIN - textX;
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(13);
  let hy = y + 5;
  for (const line of wrap(t(company?.name ?? company?.tradeName ?? 'Empresa'), headW)) {
    doc.text(line, textX, hy);
    hy += 5.5;
  }
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(9);
  const companyLines = company
    ? [
        [
          company.cnpj ? `CNPJ ${formatDocument(company.cnpj)}` : '',
          company.stateRegistration ? `IE ${company.stateRegistration}` : '',
        ]
          .filter(Boolean)
          .join(' · '),
        companyAddress(company),
        company.phone ? `Tel. ${company.phone}` : '',
      ].filter(Boolean)
    : [];
  for (const line of companyLines.flatMap((l) => wrap(t(l), headW))) {
    doc.text(line, textX, hy);
    hy += 4.5;
  }
  y = Math.max(logo ? y + logo.h : 0, hy - 4.5) + 6;
  doc.line(MARGIN, y, PAGE_W - MARGIN, y);
  y += 8;

  doc.setFont('helvetica', 'bold');
  doc.setFontSize(10);
  const status = t(STATUS_LABEL[order.status]);
  const statusW = width(status);
  doc.text(status, PAGE_W - MARGIN, y, { align: 'right' });
  doc.setFontSize(14);
  for (const line of wrap(t(`Pedido nº ${order.numPedSar}`), PAGE_W - 2 * MARGIN - statusW - 5)) {
    doc.text(line, MARGIN, y);
    y += 6;
  }
  y += 1;

  const facts: [string, string][] = [
    ['Data', formatDateTime(order.criadoEm)],
    ...(order.numPedidoErp != null ? ([['Pedido no ERP', String(order.numPedidoErp)]] as [string, string][]) : []),
    ['Cliente', `${order.nomeCliente}${order.cnpjCpfCliente ? ` · ${formatDocument(order.cnpjCpfCliente)}` : ''}`],
    ['Entrega', formatAddress(order.endEntrega)],
    ...(order.condicaoPagamento ? ([['Pagamento', order.condicaoPagamento.descricao]] as [string, string][]) : []),
    ...(order.observacao ? ([['Observação', order.observacao]] as [string, string][]) : []),
  ];
  doc.setFontSize(10);
  doc.setFont('helvetica', 'bold');
  const valueX = MARGIN + Math.max(...facts.map(([label]) => width(t(`${label}:`)))) + 2.5;
  for (const [label, value] of facts) {
    doc.setFont('helvetica', 'normal');
    const wrapped = wrap(t(value), PAGE_W - MARGIN - valueX);
    wrapped.forEach((line, i) => {
      // A long value goes on over the page; its label goes with it, so no line is orphaned.
      if (room(0, 5) || i === 0) {
        doc.setFont('helvetica', 'bold');
        doc.text(t(`${label}:`), MARGIN, y);
        doc.setFont('helvetica', 'normal');
      }
      doc.text(line, valueX, y);
      y += 5;
    });
  }
  y += 4;

  const titles = ['Produto', 'Qtd.', 'Preço tab.', 'Desc.', 'Unitário', 'Total'].map(t);
  const rows = order.itens.map((l) => ({
    description: t(`${l.descricao} (${l.codProduto})`),
    numbers: [
      formatQuantity(l.quantidade),
      formatMoney(l.precoTabela),
      formatPercent(l.descontoPercent),
      formatMoney(l.precoUnitario),
      formatMoney(l.valorTotal),
    ].map(t),
  }));
  // Number columns as wide as their widest figure; the description takes the rest. Big
  // figures shrink the type (down to 7 pt) before they squeeze the description below 60 mm.
  const GAP = 3;
  let size = 9;
  let numberW: number[] = [];
  let descW = 0;
  for (; size >= 7; size--) {
    doc.setFontSize(size);
    numberW = titles.slice(1).map((title, i) => {
      doc.setFont('helvetica', 'bold');
      const head = width(title);
      doc.setFont('helvetica', 'normal');
      return Math.max(head, ...rows.map((r) => width(r.numbers[i] as string))) + GAP;
    });
    descW = PAGE_W - 2 * MARGIN - numberW.reduce((a, b) => a + b, 0);
    if (descW >= 60) break;
  }
  size = Math.max(size, 7);
  doc.setFontSize(size);
  const step = size * MM_PER_PT * 1.2;
  const row = (description: string[], numbers: string[], bold = false) => {
    doc.setFont('helvetica', bold ? 'bold' : 'normal');
    description.forEach((line, i) => {
      doc.text(line, MARGIN, y + i * step);
    });
    let x = MARGIN + descW;
    numbers.forEach((n, i) => {
      x += numberW[i] as number;
      doc.text(n, x, y, { align: 'right' });
    });
    y += description.length * step + 1.5;
  };
  const head = () => row([titles[0] as string], titles.slice(1), true);
  head();
  for (const r of rows) {
    doc.setFont('helvetica', 'normal');
    const lines = wrap(r.description, descW - GAP);
    if (room((lines.length - 1) * step, step)) head();
    row(lines, r.numbers);
  }

  doc.setFontSize(10);
  const totals: [string, string, boolean][] = [
    ['Bruto', formatMoney(order.valorBruto), false],
    // Lines sold above the list (an acréscimo) can outweigh the discounts: the net then shows as what it is.
    order.valorDesconto < 0
      ? ['Acréscimo', formatMoney(-order.valorDesconto), false]
      : ['Desconto', formatMoney(order.valorDesconto), false],
    ['Total', formatMoney(order.valorTotal), true],
  ];
  doc.setFont('helvetica', 'bold');
  const labelW = Math.max(...totals.map(([label]) => width(t(label))));
  const valueW = Math.max(...totals.map(([, value]) => width(t(value))));
  const labelX = PAGE_W - MARGIN - valueW - 5 - labelW;
  room(2 + (totals.length - 1) * 5, 5);
  y += 2;
  doc.line(MARGIN, y - 4, PAGE_W - MARGIN, y - 4);
  for (const [label, value, bold] of totals) {
    doc.setFont('helvetica', bold ? 'bold' : 'normal');
    doc.text(t(label), labelX, y);
    doc.text(t(value), PAGE_W - MARGIN, y, { align: 'right' });
    y += 5;
  }
}
