// The client's mix (issue #41): the products a client bought in the last months, ERP orders
// and Campo orders alike, how often, the usual quantity, the last price and date. It travels
// with the portfolio (collection clientes, field mix) to seed the cart's "Sugestão" offline,
// and GET /clients/{id}/mix serves it online (docs/clients.md, "The client's mix").
import { z } from 'zod';
import { pageOf, ZPageQuery } from './pagination.ts';

/**
 * How far back the mix looks, in months before today: long enough for a client that buys every
 * month or two to show its whole basket, short enough that what it stopped buying a year ago
 * is gone rather than suggested.
 */
export const CLIENT_MIX_MONTHS = 6;
/**
 * At most this many products per client, the most bought first (by how many orders had them):
 * a shop's basket is a few dozen items, and the phone's first download carries one mix per
 * client of the portfolio (docs/benchmarks.md, the budget of the mix).
 */
export const CLIENT_MIX_MAX = 30;

/**
 * One product of the mix as the client's replicated document carries it: a tuple, not an
 * object, because a representative's phone downloads one mix per client of the portfolio and the
 * keys repeated in every entry would double its bytes. Declared as an array of five (not a zod
 * tuple): a tuple is JSON Schema 2020-12's prefixItems, which the draft-07 validators of stock
 * RxDB clients (ajv's default) refuse.
 */
export const ZSyncMixEntry = z
  .array(z.union([z.number(), z.string().regex(/^\d{4}-\d{2}-\d{2}$/)]))
  .length(5)
  .describe(
    '[idProduto, pedidos, quantidadeUsual, ultimoPreco, ultimaCompra]: the product id, how many orders in the window had it, the usual quantity (the median over those orders’ lines), the unit price of the latest purchase (BRL) and its date (YYYY-MM-DD)',
  );
/** ZSyncMixEntry as its positions are: what the server writes and the phone reads. */
export type SyncMixEntry = [
  idProduto: number,
  pedidos: number,
  quantidadeUsual: number,
  ultimoPreco: number,
  ultimaCompra: string,
];

export const ZClientMixQuery = ZPageQuery;
export type ClientMixQuery = z.infer<typeof ZClientMixQuery>;

export const ZClientMixItem = z
  .object({
    idProduto: z.number().int().describe('Product id'),
    code: z.string().nullable().describe('Product code; null when the product left the catalog'),
    description: z.string().nullable().describe('Product description; null when the product left the catalog'),
    unit: z.string().nullable().describe('Unit of sale'),
    pedidos: z
      .number()
      .int()
      .describe(`How many of the client's orders in the last ${CLIENT_MIX_MONTHS} months had it`),
    quantidadeUsual: z.number().describe('The usual quantity: the median over those orders’ lines'),
    ultimoPreco: z.number().describe('The unit price of the latest purchase, BRL'),
    ultimaCompra: z.string().describe('The date of the latest purchase, YYYY-MM-DD'),
  })
  .describe('A product of the client’s mix');
export type ClientMixItem = z.infer<typeof ZClientMixItem>;

export const ZClientMixPage = pageOf(
  ZClientMixItem,
  `The client's mix: the products it bought in the last ${CLIENT_MIX_MONTHS} months (ERP orders not cancelled, Campo orders approved or invoiced), at most ${CLIENT_MIX_MAX}, the most bought first (by orders, then the latest purchase)`,
);
export type ClientMixPage = z.infer<typeof ZClientMixPage>;
