// The PDF of an order, with the company's letterhead, for the representative to send to the
// client. jsPDF is loaded only here, and this module only when someone shares an order, so the
// app's first load does not carry it. Its built-in fonts write WinAnsi (Latin-1), so the text is
// brought to Latin-1 first: a "—" or an emoji must not turn into garbage on the client's copy.
import { type Company, type Order, toLatin1 } from '@campo/shared';
import {
  companyAddress,
  formatDateTime,
  formatDocument,
  formatMoney,
  formatPercent,
  formatQuantity,
  STATUS_LABEL,
} from '../kit/order-format.ts';

const PAGE_W = 210;
const PAGE_H = 297;
const MARGIN = 15;
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
  const t = (s: string | null | undefined) => toLatin1(s ?? '');
  let y = MARGIN;

  const logo = company?.logoBase64 ? await logoAsPng(company.logoBase64) : null;
  let textX = MARGIN;
  if (logo) {
    doc.addImage(logo.data, 'PNG', MARGIN, y, logo.w, logo.h);
    textX = MARGIN + LOGO_BOX.w + 5;
  }
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(13);
  doc.text(t(company?.name ?? company?.tradeName ?? 'Empresa'), textX, y + 5);
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
  companyLines.forEach((line, i) => {
    doc.text(t(line), textX, y + 10 + i * 4.5);
  });
  y += Math.max(logo ? logo.h : 0, 10 + companyLines.length * 4.5) + 6;
  doc.line(MARGIN, y, PAGE_W - MARGIN, y);
  y += 8;

  doc.setFont('helvetica', 'bold');
  doc.setFontSize(14);
  doc.text(t(`Pedido nº ${order.numPedSar}`), MARGIN, y);
  doc.setFontSize(10);
  doc.text(t(STATUS_LABEL[order.status]), PAGE_W - MARGIN, y, { align: 'right' });
  y += 7;
  doc.setFont('helvetica', 'normal');
  const facts: [string, string][] = [
    ['Data', formatDateTime(order.criadoEm)],
    ...(order.numPedidoErp != null ? ([['Pedido no ERP', String(order.numPedidoErp)]] as [string, string][]) : []),
    ['Cliente', `${order.nomeCliente}${order.cnpjCpfCliente ? ` · ${formatDocument(order.cnpjCpfCliente)}` : ''}`],
    ['Entrega', order.endEntrega ?? ''],
    ...(order.condicaoPagamento ? ([['Pagamento', order.condicaoPagamento.descricao]] as [string, string][]) : []),
    ...(order.observacao ? ([['Observação', order.observacao]] as [string, string][]) : []),
  ];
  for (const [label, value] of facts) {
    doc.setFont('helvetica', 'bold');
    doc.text(t(`${label}:`), MARGIN, y);
    doc.setFont('helvetica', 'normal');
    const wrapped = doc.splitTextToSize(t(value), PAGE_W - 2 * MARGIN - 25) as string[];
    doc.text(wrapped, MARGIN + 25, y);
    y += 5 * wrapped.length;
  }
  y += 4;

  // Columns: description wraps; numbers are right-aligned to their column's end.
  const cols = [
    { title: 'Produto', w: 70, align: 'left' as const },
    { title: 'Qtd.', w: 16, align: 'right' as const },
    { title: 'Preço tab.', w: 26, align: 'right' as const },
    { title: 'Desc.', w: 16, align: 'right' as const },
    { title: 'Unitário', w: 26, align: 'right' as const },
    { title: 'Total', w: 26, align: 'right' as const },
  ];
  const row = (cells: string[][], bold = false) => {
    const height = Math.max(...cells.map((c) => c.length)) * 4.2 + 1.5;
    if (y + height > PAGE_H - MARGIN) {
      doc.addPage();
      y = MARGIN;
    }
    doc.setFont('helvetica', bold ? 'bold' : 'normal');
    let x = MARGIN;
    cells.forEach((lines, i) => {
      const col = cols[i] as (typeof cols)[number];
      doc.text(lines, col.align === 'right' ? x + col.w - 1 : x, y, { align: col.align });
      x += col.w;
    });
    y += height;
  };
  doc.setFontSize(9);
  row(
    cols.map((c) => [t(c.title)]),
    true,
  );
  for (const l of order.itens) {
    row([
      doc.splitTextToSize(t(`${l.descricao} (${l.codProduto})`), cols[0]?.w ?? 70) as string[],
      [t(formatQuantity(l.quantidade))],
      [t(formatMoney(l.precoTabela))],
      [t(formatPercent(l.descontoPercent))],
      [t(formatMoney(l.precoUnitario))],
      [t(formatMoney(l.valorTotal))],
    ]);
  }
  y += 2;
  doc.line(MARGIN, y - 4, PAGE_W - MARGIN, y - 4);
  doc.setFontSize(10);
  const totals: [string, number, boolean][] = [
    ['Bruto', order.valorBruto, false],
    // Lines sold above the list (an acréscimo) can outweigh the discounts: the net then shows as what it is.
    order.valorDesconto < 0 ? ['Acréscimo', -order.valorDesconto, false] : ['Desconto', order.valorDesconto, false],
    ['Total', order.valorTotal, true],
  ];
  for (const [label, value, bold] of totals) {
    doc.setFont('helvetica', bold ? 'bold' : 'normal');
    doc.text(t(label), PAGE_W - MARGIN - 50, y);
    doc.text(t(formatMoney(value)), PAGE_W - MARGIN, y, { align: 'right' });
    y += 5;
  }
  return doc.output('blob');
}
