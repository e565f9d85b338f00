// Product groups, subgroups, products and their prices on every pauta of the tenant. The
// rows stream straight to COPY; what the order generator needs later (price, unit, category,
// active) stays in compact typed arrays.
import { CATALOG, type GroupWords, type Unidade } from './catalog-words.ts';
import type { CopyValue, CopyWriter } from './copy.ts';
import { timestamp } from './dates.ts';
import { productFiscalRow } from './fiscal.ts';
import { ean13 } from './identity.ts';
import type { Tenant } from './organization.ts';
import { Rng } from './prng.ts';

export const UNIDADES: readonly Unidade[] = ['UN', 'CX', 'FD', 'KG', 'L'];

export interface ProductTable {
  /** id_produto per product index. */
  ids: Int32Array;
  /** Index into CATALOG (the group, hence the discount category). */
  group: Uint8Array;
  /** Index into UNIDADES. */
  unidade: Uint8Array;
  /** Indexes of the active products: orders only sell these. */
  active: Int32Array;
  /** Price in centavos of product i on pauta p at [i * pautas + p]. */
  prices: Int32Array;
  pautas: number;
}

export function groupRows(tenant: Tenant): { groups: CopyValue[][]; subgroups: CopyValue[][] } {
  const groups: CopyValue[][] = [];
  const subgroups: CopyValue[][] = [];
  CATALOG.forEach((g, gi) => {
    groups.push([tenant.id, gi + 1, g.name]);
    g.subgroups.forEach((s, si) => {
      subgroups.push([tenant.id, gi + 1, si + 1, s.name]);
    });
  });
  return { groups, subgroups };
}

/**
 * Streams the tenant's products and prices to the two writers. Ids run from `firstId`.
 * `clock` gives the product's last-change timestamp: most long ago, some in the last month,
 * so a device's incremental sync has something to fetch.
 */
export async function writeProducts(options: {
  tenant: Tenant;
  count: number;
  firstId: number;
  seed: number;
  historyStart: number;
  asOf: number;
  products: CopyWriter;
  prices: CopyWriter;
  /** produtos_fiscal: the product's NCM, CEST, origin and IPI, from its line (fiscal.ts). */
  fiscal?: CopyWriter;
  onProduct?: (done: number) => void;
}): Promise<ProductTable> {
  const { tenant, count, firstId, seed, historyStart, asOf, products, prices } = options;
  const rng = Rng.derive(seed, 'products', tenant.id);
  const pautas = tenant.pautas.length;
  const table: ProductTable = {
    ids: new Int32Array(count),
    group: new Uint8Array(count),
    unidade: new Uint8Array(count),
    active: new Int32Array(0),
    prices: new Int32Array(count * pautas),
    pautas,
  };
  const active: number[] = [];
  const perCategory = new Map<string, number>();
  const weights = CATALOG.map((g, i) => [i, g.weight] as const);

  for (let i = 0; i < count; i++) {
    // The first products cover every group once, so even a tiny catalog has every category.
    const gi = i < CATALOG.length ? i : rng.weighted(weights);
    const group = CATALOG[gi] as GroupWords;
    const si = rng.int(0, group.subgroups.length - 1);
    const sub = group.subgroups[si] as GroupWords['subgroups'][number];
    const line = rng.pick(sub.lines);
    const pack = rng.pick(sub.packs);
    const description = [
      line.base,
      rng.pick(group.brands),
      rng.pick(line.variants),
      rng.pick(line.sizes ?? sub.sizes),
      pack.label,
    ]
      .filter(Boolean)
      .join(' ')
      .slice(0, 120);
    const seq = (perCategory.get(group.categoria) ?? 0) + 1;
    perCategory.set(group.categoria, seq);
    const code = `${group.categoria}${String(seq).padStart(5, '0')}`;
    const id = firstId + i;
    const isActive = rng.chance(0.95);
    // A bigger pack sells a little cheaper per unit.
    const unitCents = rng.int(sub.unitPrice[0], sub.unitPrice[1]);
    const baseCents = Math.round(unitCents * pack.units * (pack.units > 1 ? 0.95 : 1));
    // Never on the as-of day itself, so no change is dated later than the moment of the run.
    const changed = rng.chance(0.2) ? rng.int(asOf - 30, asOf - 1) : rng.int(historyStart - 400, historyStart);
    const changedAt = timestamp(changed, rng.int(6 * 3600, 20 * 3600));

    table.ids[i] = id;
    table.group[i] = gi;
    table.unidade[i] = UNIDADES.indexOf(pack.unidade);
    if (isActive) active.push(i);

    await products.write([
      id,
      tenant.id,
      code,
      description,
      pack.unidade,
      group.categoria,
      gi + 1,
      si + 1,
      rng.chance(0.9) ? ean13(id, seed) : null,
      (sub.unitWeight * pack.units * rng.real(0.9, 1.1)).toFixed(3),
      rng.chance(0.9) ? `produtos/${code}.jpg` : null,
      isActive ? 'S' : 'N',
      changedAt,
    ]);

    await options.fiscal?.write(productFiscalRow(id, line.base, changedAt));

    for (let p = 0; p < pautas; p++) {
      const factor = (tenant.pautas[p]?.factor ?? 1) * rng.real(0.985, 1.015);
      const cents = Math.max(1, Math.round(baseCents * factor));
      table.prices[i * pautas + p] = cents;
      await prices.write([tenant.id, p + 1, id, cents2(cents), changedAt]);
    }
    options.onProduct?.(i + 1);
  }
  table.active = Int32Array.from(active);
  return table;
}

/** Centavos as a decimal string, exact (no floating-point rounding). */
export function cents2(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const frac = abs % 100;
  return `${sign}${Math.floor(abs / 100)}.${frac < 10 ? '0' : ''}${frac}`;
}
