// After approval: the ERP's invoices of an order and the client's titles (receivables), as
// the order's and the client's pages show them (docs/orders.md, docs/clients.md). Read
// through app.vw_notas_pedido, app.notas_itens_erp (invoice lines, optional in the ERP
// contract) and app.vw_titulos_cliente.
import { z } from 'zod';
import { pageOf, ZPageQuery } from './pagination.ts';

/** An order is invoiced over a few invoices at most; more are not shown (the order's page). */
export const ORDER_INVOICES_MAX = 50;
/**
 * The open titles a client's replicated document carries (collection clientes), the most
 * overdue first; the rest are only counted (titulosAlem): the page of titles online lists them all.
 */
export const CLIENT_TITLES_SYNC_MAX = 30;
/** A paid title stays on the client's page this many days after its payment. */
export const PAID_TITLES_DAYS = 60;

export const ZInvoiceLine = z
  .object({
    idProduto: z.number().int().describe('Product shipped'),
    quantidade: z.number().describe('Quantity shipped on this invoice'),
    valor: z.number().describe('Line value, BRL'),
  })
  .describe('A line of an invoice');

export const ZOrderInvoice = z
  .object({
    numero: z.number().int().describe('Invoice number (notas_fiscais.num_nota)'),
    serie: z.string().describe('Invoice series'),
    emissao: z.string().describe('Issue date, YYYY-MM-DD'),
    valor: z.number().describe('Invoice value, BRL'),
    cancelada: z.boolean().describe('A cancelled invoice: shown marked, not counted as invoiced'),
    itens: z
      .array(ZInvoiceLine)
      .describe('What the invoice shipped, in its own line order; empty when the ERP keeps no invoice lines'),
  })
  .describe('An ERP invoice of the order');
export type OrderInvoice = z.infer<typeof ZOrderInvoice>;

export const ZClientTitle = z
  .object({
    id: z.number().int().describe('Receivable id (titulos_receber.id_titulo)'),
    documento: z.string().describe('Document number, as on the boleto'),
    emissao: z.string().describe('Issue date, YYYY-MM-DD'),
    vencimento: z.string().describe('Due date, YYYY-MM-DD'),
    valor: z.number().describe('Amount, BRL'),
    valorPago: z.number().describe('Amount paid, BRL'),
    pagamento: z.string().nullable().describe('Payment date, YYYY-MM-DD; null while unpaid'),
    emAberto: z.number().describe('Amount still owed, BRL'),
    pago: z.boolean().describe('Fully paid'),
    diasAtraso: z
      .number()
      .int()
      .describe("Days past the due date while open (the server's date); 0 when paid or not yet due"),
  })
  .describe('A title (receivable) of the client');
export type ClientTitle = z.infer<typeof ZClientTitle>;

export const ZClientTitlesQuery = ZPageQuery.extend({
  status: z
    .enum(['open', 'all'])
    .default('all')
    .describe(`open: unpaid titles only; all (default): also those paid in the last ${PAID_TITLES_DAYS} days`),
});
export type ClientTitlesQuery = z.infer<typeof ZClientTitlesQuery>;

export const ZClientTitlePage = pageOf(
  ZClientTitle,
  `A page of the client's titles: open ones first, the most overdue first, then those paid in the last ${PAID_TITLES_DAYS} days, newest payment first`,
);
export type ClientTitlePage = z.infer<typeof ZClientTitlePage>;

export const ZSyncClientTitle = z
  .object({
    documento: z.string().nullable().describe('Document number, as on the boleto'),
    vencimento: z.string().describe('Due date, YYYY-MM-DD'),
    valor: z.number().describe('Amount, BRL'),
    valorPago: z.number().describe('Amount paid so far, BRL'),
  })
  .describe(
    "An open title of the client on the phone. Days overdue are counted on the device from the due date: a count in the document would change every client's document every day",
  );
export type SyncClientTitle = z.infer<typeof ZSyncClientTitle>;
