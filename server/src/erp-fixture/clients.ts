// The clients in each representative's portfolio (corrent tipo 'C'), the suppliers (tipo 'F'),
// and each client's buying pattern. The pattern is decided here, before any order is written,
// so that corrent.dt_ultima_compra and the receivables' overdue profile agree with the orders
// the order generator will produce from the same plan.
import type { CopyValue } from './copy.ts';
import { isoDay, timestamp, weekday } from './dates.ts';
import {
  address,
  cnpj,
  cpf,
  inscricaoEstadual,
  person,
  personalEmail,
  phone,
  shopName,
  slug,
  supplierName,
} from './identity.ts';
import type { City } from './names.ts';
import type { Rep, Tenant } from './organization.ts';
import { Rng } from './prng.ts';
import type { ScaleSpec } from './scales.ts';

/**
 * How a client pays: 'ok' pays on time (a few days either side of the due date), 'late' has
 * left the last month's titles unpaid (overdue up to 30 days), 'defaulter' has not paid for
 * months (overdue more than 30 days, which Campo treats as a financial block).
 */
export type Finance = 'ok' | 'late' | 'defaulter';

export interface ClientPlan {
  id: number;
  tenant: Tenant;
  rep: Rep;
  pauta: number;
  /** Multiplies order quantities: a supermarket buys more than a corner bar. */
  size: number;
  finance: Finance;
  deliveryAddress: string;
  /** Latest day of a non-cancelled order, or null when the client never bought. */
  lastPurchase: number | null;
  /** Default payment term (corrent.id_condicao), also the term of the client's ERP orders. */
  condicao: number;
  /** The only terms the client may buy on (corrent_condicoes), or null for every one. */
  condicoes: number[] | null;
  row: CopyValue[];
}

/**
 * A client's default payment term, from its id rather than the random stream, so that adding
 * terms to the fixture left every other generated value as it was. Most buy on 28/35/42.
 */
const TERM_BY_ID = [3, 3, 2, 4, 5, 1, 3, 2] as const;
const CASH = 1;
const SHORT_TERM = 2;

const DT_ULTIMA_COMPRA = 20;
const SITUACAO = 19;
const ATIVO = 23;
const ID_CONDICAO = 24;

/** corrent_condicoes rows of a client whose terms the credit department restricts. */
export function clientTermRows(c: ClientPlan): CopyValue[][] {
  return (c.condicoes ?? []).map((id) => [c.id, c.tenant.id, id]);
}

/**
 * Every order of the history as parallel typed arrays (a few bytes per order), so that the
 * orders can be written in date order across all clients, as a real ERP numbers them.
 */
export class OrderEvents {
  client = new Int32Array(1024);
  day = new Int32Array(1024);
  seconds = new Int32Array(1024);
  seed = new Uint32Array(1024);
  cancelled = new Uint8Array(1024);
  length = 0;

  push(client: number, day: number, seconds: number, seed: number, cancelled: boolean): void {
    if (this.length === this.client.length) this.grow();
    const i = this.length++;
    this.client[i] = client;
    this.day[i] = day;
    this.seconds[i] = seconds;
    this.seed[i] = seed;
    this.cancelled[i] = cancelled ? 1 : 0;
  }

  private grow(): void {
    const size = this.client.length * 2;
    const grow = <T extends Int32Array | Uint32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.client = grow(this.client, (n) => new Int32Array(n));
    this.day = grow(this.day, (n) => new Int32Array(n));
    this.seconds = grow(this.seconds, (n) => new Int32Array(n));
    this.seed = grow(this.seed, (n) => new Uint32Array(n));
    this.cancelled = grow(this.cancelled, (n) => new Uint8Array(n));
  }

  /** Event indexes sorted by date and time (ties by index, so the order is deterministic). */
  chronological(firstDay: number): Int32Array {
    const slots = 2 ** 23;
    if (this.length >= slots) throw new RangeError(`at most ${slots} orders are supported`);
    const keys = new Float64Array(this.length);
    for (let i = 0; i < this.length; i++) {
      keys[i] = ((this.day[i] as number) - firstDay) * 86_400 * slots + (this.seconds[i] as number) * slots + i;
    }
    keys.sort();
    const order = new Int32Array(this.length);
    for (let i = 0; i < this.length; i++) order[i] = (keys[i] as number) % slots;
    return order;
  }
}

export interface ClientPlanResult {
  clients: ClientPlan[];
  suppliers: CopyValue[][];
  events: OrderEvents;
  nextId: number;
}

const RATE_FACTORS = [
  [0.25, 2],
  [0.5, 3],
  [1, 4],
  [1.5, 2],
  [2.5, 1],
  [4, 0.5],
] as const;

export function planClients(options: {
  tenants: Tenant[];
  spec: ScaleSpec;
  seed: number;
  asOf: number;
  /** Orders of the as-of day end at this second of the day (the current time when as-of is today). */
  lastSecond: number;
  historyStart: number;
}): ClientPlanResult {
  const { tenants, spec, seed, asOf, lastSecond, historyStart } = options;
  const salt = Rng.derive(seed, 'documents').int(0, 99_999_999);
  const events = new OrderEvents();
  const clients: ClientPlan[] = [];
  const suppliers: CopyValue[][] = [];
  let id = 0;

  for (const tenant of tenants) {
    const rng = Rng.derive(seed, 'clients', tenant.id);
    const home = tenant.cities[0] as City;
    const pautaWeights = tenant.pautas.map((p) => [p.id, p.id === 1 ? 5 : 3] as const);
    const defaulterCandidates: ClientPlan[] = [];
    const lateCandidates: ClientPlan[] = [];
    const tenantClients: ClientPlan[] = [];

    for (const rep of tenant.activeReps) {
      for (let c = 0; c < spec.clientsPerRep; c++) {
        id++;
        const city = rng.chance(0.6) ? home : rng.pick(tenant.cities);
        const a = address(rng, city);
        const owner = person(rng);
        const pessoa = rng.chance(0.15) ? 'F' : 'J';
        const shop = shopName(rng, owner);
        const razao = pessoa === 'F' ? owner.full : shop.razaoSocial;
        const email = rng.chance(0.1)
          ? null
          : pessoa === 'J' && rng.chance(0.7)
            ? `${rng.pick(['compras', 'financeiro', 'contato', slug(owner.first)])}@${slug(shop.nomeFantasia).slice(0, 30)}.com.br`
            : personalEmail(rng, owner);
        const registered = rng.chance(0.7) ? historyStart - rng.int(1, 1500) : rng.int(historyStart, asOf - 1);
        const plan: ClientPlan = {
          id,
          tenant,
          rep,
          pauta: rng.weighted(pautaWeights),
          size: rng.weighted([
            [1, 70],
            [2, 20],
            [4, 10],
          ]),
          finance: 'ok',
          deliveryAddress:
            `${a.endereco}, ${a.numero}${a.complemento ? ` - ${a.complemento}` : ''} - ${a.bairro} - ${a.cidade}/${a.uf} - CEP ${a.cep}`.slice(
              0,
              200,
            ),
          lastPurchase: null,
          condicao: TERM_BY_ID[id % TERM_BY_ID.length] as number,
          condicoes: null,
          row: [
            id,
            tenant.id,
            'C',
            pessoa,
            razao,
            shop.nomeFantasia,
            pessoa === 'F' ? cpf(id, salt) : cnpj(id, salt),
            inscricaoEstadual(rng, pessoa),
            a.endereco,
            a.numero,
            a.complemento,
            a.bairro,
            a.cidade,
            a.uf,
            a.cep,
            rng.chance(0.05) ? null : phone(rng, a.ddd, rng.chance(0.5)),
            email,
            rep.cod,
            0,
            'N',
            null,
            timestamp(registered, rng.int(8 * 3600, 18 * 3600)),
            'ERP',
            'S',
            null,
          ],
        };
        plan.row[18] = plan.pauta;
        const windows = schedule(plan, clients.length, registered, {
          spec,
          seed,
          asOf,
          lastSecond,
          historyStart,
          events,
        });
        if (plan.lastPurchase !== null) plan.row[DT_ULTIMA_COMPRA] = isoDay(plan.lastPurchase);
        else if (rng.chance(0.2)) plan.row[ATIVO] = 'N';
        if (windows.defaulter) defaulterCandidates.push(plan);
        if (windows.late) lateCandidates.push(plan);
        clients.push(plan);
        tenantClients.push(plan);
      }
    }

    assignFinance(tenant, tenantClients, defaulterCandidates, lateCandidates, seed);

    for (let s = 0; s < spec.suppliersPerTenant; s++) {
      id++;
      const city = rng.pick(tenant.cities);
      const a = address(rng, city);
      const name = supplierName(rng);
      suppliers.push([
        id,
        tenant.id,
        'F',
        'J',
        name.razaoSocial,
        name.nomeFantasia,
        cnpj(id, salt),
        inscricaoEstadual(rng, 'J'),
        a.endereco,
        a.numero,
        a.complemento,
        a.bairro,
        a.cidade,
        a.uf,
        a.cep,
        phone(rng, a.ddd, false),
        `comercial@${slug(name.nomeFantasia).slice(0, 30)}.com.br`,
        null,
        null,
        'N',
        null,
        timestamp(historyStart - rng.int(1, 2000), rng.int(8 * 3600, 18 * 3600)),
        'ERP',
        'S',
        null,
      ]);
    }
  }
  for (const c of clients) c.row[ID_CONDICAO] = c.condicao;
  return { clients, suppliers, events, nextId: id + 1 };
}

/**
 * Draws the client's order dates into `events` and returns whether it has a (non-cancelled)
 * order in the windows that make a receivable overdue more than 30 days, or up to 30 days.
 */
function schedule(
  plan: ClientPlan,
  index: number,
  registered: number,
  ctx: { spec: ScaleSpec; seed: number; asOf: number; lastSecond: number; historyStart: number; events: OrderEvents },
): { defaulter: boolean; late: boolean } {
  const { spec, asOf, historyStart, events } = ctx;
  const rng = Rng.derive(ctx.seed, 'schedule', plan.id);
  const kind = rng.weighted([
    ['regular', 83],
    ['lapsed', 12],
    ['never', 5],
  ] as const);
  const windows = { defaulter: false, late: false };
  if (kind === 'never') return windows;
  const first = Math.max(historyStart, registered + rng.int(0, 10));
  // A lapsed client stopped buying more than 30 days ago: an inactive client for the dashboards.
  const end = kind === 'lapsed' ? asOf - 31 - rng.int(0, Math.floor(spec.historyDays / 2)) : asOf;
  const interval = 30 / (spec.ordersPerClientMonth * rng.weighted(RATE_FACTORS));
  let next = first + Math.floor(rng.real(0, interval));
  while (next <= end) {
    // Nobody takes orders on Sundays: the visit moves to Monday.
    const day = weekday(next) === 0 ? next + 1 : next;
    if (day > end) break;
    const cancelled = rng.chance(0.03);
    const seconds = rng.int(7 * 3600, 19 * 3600 - 1);
    const orderSeed = Math.floor(rng.next() * 2 ** 32);
    next = day + Math.max(1, Math.round(interval * rng.real(0.5, 1.5)));
    // Nothing later than "now" when the history ends today.
    if (day === asOf && seconds > ctx.lastSecond) continue;
    events.push(index, day, seconds, orderSeed, cancelled);
    if (!cancelled) {
      plan.lastPurchase = day;
      // First due date is invoice + 28 days, the invoice at most a day after the order.
      if (day >= asOf - 148 && day <= asOf - 60) windows.defaulter = true;
      if (day >= asOf - 55 && day <= asOf - 30) windows.late = true;
    }
  }
  return windows;
}

function assignFinance(
  tenant: Tenant,
  clients: ClientPlan[],
  defaulterCandidates: ClientPlan[],
  lateCandidates: ClientPlan[],
  seed: number,
): void {
  const rng = Rng.derive(seed, 'finance', tenant.id);
  const share = (p: number) => Math.max(1, Math.round(clients.length * p));
  for (const c of rng.shuffle(defaulterCandidates).slice(0, share(0.015))) c.finance = 'defaulter';
  const late = rng.shuffle(lateCandidates.filter((c) => c.finance === 'ok'));
  for (const c of late.slice(0, share(0.05))) c.finance = 'late';
  // Clients who pay late buy only in cash or on a short term (corrent_condicoes).
  for (const c of clients) {
    if (c.finance === 'ok') continue;
    c.condicao = CASH;
    c.condicoes = [CASH, SHORT_TERM];
  }
  // The credit department's manual block, independent of the receivables.
  const blockable = rng.shuffle(clients.filter((c) => c.finance === 'ok'));
  for (const c of blockable.slice(0, share(0.02))) c.row[SITUACAO] = 'B';
}
