// The ERP's order history in date order: orders and their lines priced from the client's
// pauta, the invoices of each invoiced order with their lines (now and then two, when the
// order was partly invoiced, or a cancelled one issued again) and the receivables of each
// invoice (1 to 3 installments), paid or not according to the client's payment profile. Amounts are integer centavos until they
// are written, so that line totals add up to the order total exactly as PostgreSQL sums them.

import { cents2, type ProductTable, UNIDADES } from './catalog.ts';
import { CATALOG } from './catalog-words.ts';
import type { ClientPlan, OrderEvents } from './clients.ts';
import type { CopyWriter } from './copy.ts';
import { isoDay, timestamp } from './dates.ts';
import { Rng } from './prng.ts';
import type { ScaleSpec } from './scales.ts';

export interface OrderWriters {
  orders: CopyWriter;
  items: CopyWriter;
  invoices: CopyWriter;
  invoiceItems: CopyWriter;
  titles: CopyWriter;
}

export interface OrderIdRanges {
  lastOrderId: number;
  lastInvoiceId: number;
  lastTitleId: number;
}

const NOTES = [
  'Entregar pela manhã',
  'Cliente pede entrega após as 14h',
  'Descarregar pela rua lateral',
  'Pagamento via boleto',
  'Conferir validade dos frios na entrega',
  'Não aceita produto amassado',
  'Ligar antes de entregar',
  'Promoção do mês negociada com o supervisor',
  'Reposição de gôndola',
  'Pedido feito por telefone',
] as const;

// Days after the invoice that each installment falls due, by number of installments.
const TERMS: readonly (readonly number[])[] = [[28], [28, 42], [28, 42, 56]];

interface Line {
  product: number;
  quantityMilli: number;
  listCents: number;
  unitCents: number;
  discountBasis: number;
  totalCents: number;
}

export async function writeOrders(options: {
  events: OrderEvents;
  clients: ClientPlan[];
  products: Map<number, ProductTable>;
  spec: ScaleSpec;
  seed: number;
  asOf: number;
  historyStart: number;
  writers: OrderWriters;
  onOrder?: (done: number, total: number) => void;
}): Promise<OrderIdRanges> {
  const { events, clients, products, spec, seed, asOf, writers } = options;
  const order = events.chronological(options.historyStart);
  const baskets = new Map<number, Int32Array>();
  const nextOrderNumber = new Map<number, number>();
  const nextInvoiceNumber = new Map<number, number>();
  let orderId = 0;
  let invoiceId = 0;
  let titleId = 0;

  for (let n = 0; n < order.length; n++) {
    const e = order[n] as number;
    const client = clients[events.client[e] as number] as ClientPlan;
    const tenantId = client.tenant.id;
    const table = products.get(tenantId) as ProductTable;
    const day = events.day[e] as number;
    const rng = new Rng(events.seed[e] as number);
    const cancelled = events.cancelled[e] === 1;
    const age = asOf - day;

    let basket = baskets.get(client.id);
    if (!basket) {
      basket = makeBasket(table, Rng.derive(seed, 'basket', client.id));
      baskets.set(client.id, basket);
    }
    const lines = orderLines(rng, client, table, basket, spec);
    const totalCents = lines.reduce((sum, l) => sum + l.totalCents, 0);

    // Today's orders are still open; a day or two old, most are already invoiced.
    const open = !cancelled && (age === 0 || (age === 1 && rng.chance(0.7)) || (age === 2 && rng.chance(0.3)));
    // Partial invoicing and re-issued invoices come from a stream of their own, so that adding
    // them changed no other value of the history. An order whose rest is not yet invoiced
    // on the as-of date is still open.
    const billing = Rng.derive(seed, 'invoicing', e);
    const split =
      !cancelled && !open && lines.length > 1 && billing.chance(0.12) ? splitLines(lines, billing, day) : null;
    const reissued = !split && billing.chance(0.03);
    const situacao = cancelled ? 'C' : open || (split && split.secondDay > asOf) ? 'A' : 'F';
    orderId++;
    const numPedido = (nextOrderNumber.get(tenantId) ?? 0) + 1;
    nextOrderNumber.set(tenantId, numPedido);
    await writers.orders.write([
      orderId,
      tenantId,
      numPedido,
      client.id,
      client.rep.cod,
      client.pauta,
      timestamp(day, events.seconds[e] as number),
      situacao,
      cents2(totalCents),
      rng.chance(0.85) ? client.deliveryAddress : null,
      rng.chance(0.1) ? rng.pick(NOTES) : null,
      'ERP',
      null,
      client.condicao,
    ]);
    for (let s = 0; s < lines.length; s++) {
      const l = lines[s] as Line;
      await writers.items.write([
        orderId,
        s + 1,
        table.ids[l.product] as number,
        milli(l.quantityMilli),
        cents2(l.listCents),
        cents2(l.unitCents),
        cents2(l.discountBasis),
        cents2(l.totalCents),
      ]);
    }

    // A cancelled order that had already been invoiced keeps its cancelled invoice.
    const invoiced = (!cancelled && !open) || (cancelled && age > 3 && rng.chance(0.25));
    if (invoiced) {
      const invoiceDay = Math.min(asOf, day + (rng.chance(0.6) ? 0 : 1));
      const all = lines.map((l) => ({ product: l.product, quantityMilli: l.quantityMilli, totalCents: l.totalCents }));
      const issue = async (shipped: Shipped[], on: number, cancelledInvoice: boolean): Promise<void> => {
        invoiceId++;
        const numNota = (nextInvoiceNumber.get(tenantId) ?? 0) + 1;
        nextInvoiceNumber.set(tenantId, numNota);
        const invoiceCents = shipped.reduce((sum, l) => sum + l.totalCents, 0);
        await writers.invoices.write([
          invoiceId,
          tenantId,
          numNota,
          '1',
          orderId,
          client.id,
          client.rep.cod,
          isoDay(on),
          cents2(invoiceCents),
          cancelledInvoice ? 'S' : 'N',
        ]);
        for (let s = 0; s < shipped.length; s++) {
          const l = shipped[s] as Shipped;
          await writers.invoiceItems.write([
            invoiceId,
            s + 1,
            table.ids[l.product] as number,
            milli(l.quantityMilli),
            ((l.totalCents * 10) / l.quantityMilli).toFixed(4),
            cents2(l.totalCents),
          ]);
        }
        if (cancelledInvoice) return;
        const terms = TERMS[invoiceCents < 30_000 ? 0 : invoiceCents < 150_000 ? 1 : 2] as readonly number[];
        const share = Math.floor(invoiceCents / terms.length);
        for (let k = 0; k < terms.length; k++) {
          titleId++;
          const value = k === terms.length - 1 ? invoiceCents - share * (terms.length - 1) : share;
          const due = on + (terms[k] as number);
          const paidOn = paymentDay(rng, client, due, on, asOf);
          await writers.titles.write([
            titleId,
            tenantId,
            client.id,
            invoiceId,
            `${String(numNota).padStart(6, '0')}/${k + 1}`,
            isoDay(on),
            isoDay(due),
            cents2(value),
            paidOn === null ? '0.00' : cents2(value),
            paidOn === null ? null : isoDay(paidOn),
          ]);
        }
      };
      if (cancelled) await issue(all, invoiceDay, true);
      else if (split) {
        await issue(split.first, invoiceDay, false);
        if (split.secondDay <= asOf) await issue(split.rest, split.secondDay, false);
      } else {
        // Now and then the first invoice went out wrong and was cancelled and issued again.
        if (reissued) await issue(all, invoiceDay, true);
        await issue(all, invoiceDay, false);
      }
    }
    if (n % 1000 === 999 || n === order.length - 1) options.onOrder?.(n + 1, order.length);
  }
  return { lastOrderId: orderId, lastInvoiceId: invoiceId, lastTitleId: titleId };
}

/** What an invoice ships of an order line. */
interface Shipped {
  product: number;
  quantityMilli: number;
  totalCents: number;
}

/**
 * A partly invoiced order: the first invoice ships the first lines (the last of them only in
 * part, when it has more than one unit) and a second one, two to seven days after the order,
 * the rest.
 */
function splitLines(lines: Line[], rng: Rng, day: number): { first: Shipped[]; rest: Shipped[]; secondDay: number } {
  const cut = rng.int(1, lines.length - 1);
  const first: Shipped[] = [];
  const rest: Shipped[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as Line;
    const whole = { product: l.product, quantityMilli: l.quantityMilli, totalCents: l.totalCents };
    const units = Math.floor(l.quantityMilli / 2000) * 1000;
    if (i === cut - 1 && units > 0 && units < l.quantityMilli) {
      const cents = Math.round((l.totalCents * units) / l.quantityMilli);
      first.push({ product: l.product, quantityMilli: units, totalCents: cents });
      rest.push({ product: l.product, quantityMilli: l.quantityMilli - units, totalCents: l.totalCents - cents });
    } else (i < cut ? first : rest).push(whole);
  }
  return { first, rest, secondDay: day + rng.int(2, 7) };
}

/** When the title was paid, or null if it is still open on the as-of date. */
function paymentDay(rng: Rng, client: ClientPlan, due: number, issued: number, asOf: number): number | null {
  if (due >= asOf) return null;
  if (client.finance === 'defaulter' && due >= asOf - 150) return null;
  if (client.finance === 'late' && due >= asOf - 28) return null;
  // Good payers settle within a few days of the due date; a payment not yet made by the as-of
  // date leaves the title overdue by at most three days.
  const paid = Math.max(issued, due + rng.int(-5, 3));
  return paid > asOf ? null : paid;
}

/**
 * The products a client usually buys: a shop reorders mostly the same items. Popular products
 * (low indexes in the shuffled active list) are more likely to be in a basket.
 */
function makeBasket(table: ProductTable, rng: Rng): Int32Array {
  const active = table.active;
  const size = Math.min(active.length, rng.int(12, 60));
  const chosen = new Set<number>();
  while (chosen.size < size) chosen.add(active[Math.floor(active.length * rng.next() ** 2)] as number);
  return Int32Array.from(chosen);
}

function orderLines(rng: Rng, client: ClientPlan, table: ProductTable, basket: Int32Array, spec: ScaleSpec): Line[] {
  const wanted = Math.min(rng.int(spec.itemsPerOrder[0], spec.itemsPerOrder[1]), table.active.length);
  const picked = new Set<number>();
  while (picked.size < wanted) {
    picked.add(
      rng.chance(0.8)
        ? (basket[rng.int(0, basket.length - 1)] as number)
        : (table.active[Math.floor(table.active.length * rng.next() ** 2)] as number),
    );
  }
  const lines: Line[] = [];
  for (const product of picked) {
    const listCents = table.prices[product * table.pautas + client.pauta - 1] as number;
    const quantityMilli = quantity(rng, UNIDADES[table.unidade[product] as number] ?? 'UN', client.size);
    const categoria = CATALOG[table.group[product] as number]?.categoria ?? '';
    const ceiling = client.rep.ceilings.get(categoria) ?? client.rep.percDescMax ?? 5;
    let discountBasis = 0;
    let unitCents = listCents;
    const r = rng.next();
    if (r < 0.22) {
      // A discount within the representative's ceiling, in half-percent steps (basis = 1/100 %).
      discountBasis = Math.min(ceiling * 100, rng.int(1, Math.max(1, ceiling * 2)) * 50);
      unitCents = Math.round((listCents * (10_000 - discountBasis)) / 10_000);
    } else if (r < 0.27) {
      // Sold above the list price: the representative earns flex commission on the difference.
      unitCents = Math.round(listCents * rng.real(1.01, 1.05));
    }
    lines.push({
      product,
      quantityMilli,
      listCents,
      unitCents,
      discountBasis,
      totalCents: Math.round((quantityMilli * unitCents) / 1000),
    });
  }
  return lines;
}

function quantity(rng: Rng, unidade: string, size: number): number {
  switch (unidade) {
    case 'KG':
      return rng.int(500, 20_000) * size;
    case 'L':
      return rng.pick([10, 20, 30, 50]) * 1000 * size;
    case 'CX':
    case 'FD':
      return (
        rng.weighted([
          [1, 5],
          [2, 4],
          [3, 3],
          [5, 2],
          [10, 1],
        ] as const) *
        1000 *
        size
      );
    default:
      return rng.int(1, 24) * 1000 * size;
  }
}

/** Thousandths as a decimal string with three places. */
function milli(value: number): string {
  const frac = value % 1000;
  return `${Math.floor(value / 1000)}.${String(frac).padStart(3, '0')}`;
}
