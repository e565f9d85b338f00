// `createErpFixture`: a reference ERP full of realistic, deterministic data, for tests, the
// demo and benchmarks. It only ever writes into a LATIN1 database without ERP tables, or
// over a previous fixture (see database.ts for the safety rules).
import type pg from 'pg';
import { groupRows, type ProductTable, writeProducts } from './catalog.ts';
import { clientTermRows, planClients } from './clients.ts';
import { type CopyValue, CopyWriter } from './copy.ts';
import {
  advanceSequences,
  analyze,
  assertErpEncoding,
  clearPreviousFixture,
  deferConstraints,
  ERP_TABLES,
  markAsFixture,
  restoreConstraints,
} from './database.ts';
import { dayOf, erpNow, isoDay } from './dates.ts';
import { clientFiscalRow, taxRuleRows } from './fiscal.ts';
import { clearPreviousOdooFixture, mapReferenceToOdoo } from './odoo.ts';
import { writeOrders } from './orders.ts';
import { buildTenants, pautaRows, paymentTermRows, repCeilingRows } from './organization.ts';
import { type FixtureScale, SCALES } from './scales.ts';
import { createErpSchema } from './schema.ts';

export { FixtureError, type FixtureRefusal } from './errors.ts';

export const FIXTURE_PROFILES = ['referencia', 'odoo'] as const;
export type FixtureProfile = (typeof FIXTURE_PROFILES)[number];
export { FIXTURE_SCALES, type FixtureScale } from './scales.ts';

export interface FixtureProgress {
  phase: string;
  done: number;
  total: number;
}

export interface FixtureOptions {
  scale: FixtureScale;
  /** Same seed and as-of date, same data. Default 1. */
  seed?: number;
  /** Last day of the history (read as a UTC calendar day). Default: today on this machine. */
  asOf?: Date;
  /** Drop and rebuild the reference tables, but only if a previous fixture created them. */
  replace?: boolean;
  /**
   * The ERP's shape: 'referencia' (default, sql/erp-reference) or 'odoo' (the same data in
   * the Odoo-like tables of sql/erp-profiles/odoo/erp).
   */
  profile?: FixtureProfile;
  onProgress?: (progress: FixtureProgress) => void;
}

export interface FixtureSummary {
  scale: FixtureScale;
  seed: number;
  /** YYYY-MM-DD. */
  asOf: string;
  /** Rows written per table, in load order. */
  counts: Record<string, number>;
  ms: number;
}

/** Column lists for COPY, in the order the generators build rows. */
const COLUMNS = {
  empresas: [
    'id_empresa',
    'id_matriz',
    'razao_social',
    'nome_fantasia',
    'cnpj',
    'inscricao_estadual',
    'endereco',
    'cidade',
    'uf',
    'cep',
    'telefone',
    'ativo',
  ],
  supervisores: ['id_empresa', 'cod_supervisor', 'nome', 'email', 'ativo'],
  vendedores: [
    'id_empresa',
    'cod_vendedor',
    'nome',
    'email',
    'telefone',
    'cod_supervisor',
    'perc_desc_max',
    'perc_comissao',
    'perc_comissao_flex',
    'ativo',
  ],
  vendedores_desc_categoria: ['id_empresa', 'cod_vendedor', 'categoria', 'perc_desc_max'],
  grupos_produto: ['id_empresa', 'cod_grupo', 'descricao'],
  subgrupos_produto: ['id_empresa', 'cod_grupo', 'cod_subgrupo', 'descricao'],
  produtos: [
    'id_produto',
    'id_empresa',
    'cod_produto',
    'descricao',
    'unidade',
    'categoria',
    'cod_grupo',
    'cod_subgrupo',
    'ean',
    'peso_kg',
    'imagem',
    'ativo',
    'dt_alteracao',
  ],
  pautas: ['id_empresa', 'id_pauta', 'descricao', 'ativo'],
  pautas_precos: ['id_empresa', 'id_pauta', 'id_produto', 'preco', 'dt_alteracao'],
  corrent: [
    'id_corrent',
    'id_empresa',
    'tipo',
    'tipo_pessoa',
    'razao_social',
    'nome_fantasia',
    'cnpj_cpf',
    'inscricao_estadual',
    'endereco',
    'numero',
    'complemento',
    'bairro',
    'cidade',
    'uf',
    'cep',
    'telefone',
    'email',
    'cod_vendedor',
    'id_pauta',
    'situacao',
    'dt_ultima_compra',
    'dt_cadastro',
    'origem',
    'ativo',
    'id_condicao',
  ],
  condicoes_pagamento: ['id_empresa', 'id_condicao', 'descricao', 'dias_prazo', 'ativo'],
  estoque: ['id_empresa', 'id_produto', 'quantidade'],
  produtos_fiscal: ['id_produto', 'ncm', 'cest', 'origem', 'perc_ipi', 'dt_alteracao'],
  regras_fiscais: [
    'id_regra',
    'id_empresa',
    'ncm',
    'uf_origem',
    'uf_destino',
    'regime',
    'aliq_icms',
    'icms_st',
    'mva',
    'aliq_icms_st',
    'perc_fcp',
    'perc_fcp_st',
    'perc_red_base',
    'dt_alteracao',
  ],
  corrent_fiscal: ['id_corrent', 'contribuinte_icms', 'simples_nacional', 'consumidor_final'],
  corrent_condicoes: ['id_corrent', 'id_empresa', 'id_condicao'],
  corrent_visitas: ['id_corrent', 'dia_semana', 'intervalo_semanas', 'data_base'],
  pedidos_venda: [
    'id_pedido',
    'id_empresa',
    'num_pedido',
    'id_corrent',
    'cod_vendedor',
    'id_pauta',
    'dt_emissao',
    'situacao',
    'valor_total',
    'end_entrega',
    'observacao',
    'origem',
    'num_ped_sar',
    'id_condicao',
  ],
  pedidos_venda_itens: [
    'id_pedido',
    'seq',
    'id_produto',
    'quantidade',
    'preco_tabela',
    'preco_unitario',
    'perc_desconto',
    'valor_total',
  ],
  notas_fiscais: [
    'id_nota',
    'id_empresa',
    'num_nota',
    'serie',
    'id_pedido',
    'id_corrent',
    'cod_vendedor',
    'dt_emissao',
    'valor_total',
    'cancelada',
  ],
  notas_fiscais_itens: ['id_nota', 'seq', 'id_produto', 'quantidade', 'valor_unitario', 'valor_total'],
  titulos_receber: [
    'id_titulo',
    'id_empresa',
    'id_corrent',
    'id_nota',
    'num_documento',
    'dt_emissao',
    'dt_vencimento',
    'valor',
    'valor_pago',
    'dt_pagamento',
  ],
} as const satisfies Record<(typeof ERP_TABLES)[number], readonly string[]>;

type ErpTable = keyof typeof COLUMNS;

/**
 * Stock on hand (estoque): nine products in ten have a row, a few of them at zero; taken from
 * the product id rather than the random stream, so adding stock changed no other value.
 */
function stockRows(idEmpresa: number, table: ProductTable | undefined): CopyValue[][] {
  return [...(table?.ids ?? [])].filter((id) => id % 10 !== 0).map((id) => [idEmpresa, id, `${(id * 7919) % 240}.000`]);
}

/**
 * Visit days (corrent_visitas): two clients in three have one, a weekday from Monday to Friday,
 * one in five of those every other week from a Monday; taken from the client id rather than the
 * random stream, so adding them changed no other value.
 */
function visitDayRows(c: { id: number }): CopyValue[][] {
  if (c.id % 3 === 0) return [];
  const day = (c.id % 5) + 1;
  return c.id % 5 === 1 ? [[c.id, day, 2, '2026-01-05']] : [[c.id, day, 1, null]];
}

function checkOptions(options: FixtureOptions): { seed: number; asOf: number; lastSecond: number } {
  if (!Object.hasOwn(SCALES, options.scale)) {
    throw new RangeError(`unknown scale "${options.scale}": use tiny, small, medium or large`);
  }
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`seed must be an integer from 0 to 4294967295, got ${seed}`);
  }
  if (options.asOf && Number.isNaN(options.asOf.getTime())) throw new RangeError('asOf is not a valid date');
  if (options.asOf) return { seed, asOf: dayOf(options.asOf), lastSecond: 86_399 };
  // Without an as-of date the history ends now: today's orders stop at the current time, so
  // no row is dated in the future. (With one, the whole day is filled and the run repeats.)
  const now = erpNow();
  return { seed, asOf: now.day, lastSecond: now.second };
}

/**
 * Creates the reference ERP tables in `pool`'s database and loads them. Throws FixtureError
 * (before writing anything) when the database is not LATIN1, WIN1252 or UTF8 or already has ERP tables that
 * it may not replace.
 */
export async function createErpFixture(pool: pg.Pool, options: FixtureOptions): Promise<FixtureSummary> {
  if ((options.profile ?? 'referencia') === 'referencia') return createReferenceFixture(pool, options);
  if (options.profile !== 'odoo')
    throw new RangeError(`unknown ERP profile "${options.profile}": use referencia or odoo`);
  const started = performance.now();
  checkOptions(options);
  await clearPreviousOdooFixture(pool, options.replace ?? false);
  const reference = await createReferenceFixture(pool, { ...options, replace: false });
  options.onProgress?.({ phase: 'odoo', done: 0, total: 1 });
  const counts = await mapReferenceToOdoo(pool);
  options.onProgress?.({ phase: 'odoo', done: 1, total: 1 });
  return { ...reference, counts, ms: Math.round(performance.now() - started) };
}

async function createReferenceFixture(pool: pg.Pool, options: FixtureOptions): Promise<FixtureSummary> {
  const started = performance.now();
  const { seed, asOf, lastSecond } = checkOptions(options);
  const spec = SCALES[options.scale];
  const historyStart = asOf - spec.historyDays + 1;
  const progress = (phase: string, done: number, total: number) => options.onProgress?.({ phase, done, total });

  await assertErpEncoding(pool);
  await clearPreviousFixture(pool, options.replace ?? false);
  progress('schema', 0, 1);
  await createErpSchema(pool);
  // Marked before any row is loaded: a run that fails half-way can still be replaced.
  await markAsFixture(pool);
  const deferred = await deferConstraints(pool);
  progress('schema', 1, 1);

  const counts = Object.fromEntries(ERP_TABLES.map((t) => [t, 0])) as Record<ErpTable, number>;
  const open: CopyWriter[] = [];
  const writer = async (table: ErpTable) => {
    const w = await CopyWriter.open(pool, table, COLUMNS[table]);
    open.push(w);
    return w;
  };
  const finish = async (table: ErpTable, w: CopyWriter) => {
    counts[table] += await w.finish();
    open.splice(open.indexOf(w), 1);
  };
  const copyRows = async (table: ErpTable, rows: readonly CopyValue[][]) => {
    const w = await writer(table);
    for (const row of rows) await w.write(row);
    await finish(table, w);
  };

  try {
    const tenants = buildTenants(spec, seed);
    const registers = 8;
    progress('companies', 0, registers);
    await copyRows(
      'empresas',
      tenants.flatMap((t) => t.empresas),
    );
    await copyRows(
      'supervisores',
      tenants.flatMap((t) => t.supervisors),
    );
    await copyRows(
      'vendedores',
      tenants.flatMap((t) => t.reps.map((r) => r.row)),
    );
    await copyRows('vendedores_desc_categoria', tenants.flatMap(repCeilingRows));
    await copyRows(
      'grupos_produto',
      tenants.flatMap((t) => groupRows(t).groups),
    );
    await copyRows(
      'subgrupos_produto',
      tenants.flatMap((t) => groupRows(t).subgroups),
    );
    await copyRows('pautas', tenants.flatMap(pautaRows));
    await copyRows('condicoes_pagamento', tenants.flatMap(paymentTermRows));
    progress('companies', registers, registers);

    const productTotal = spec.productsPerTenant * tenants.length;
    const productTables = new Map<number, ProductTable>();
    progress('products', 0, productTotal);
    const [products, prices, fiscal] = [
      await writer('produtos'),
      await writer('pautas_precos'),
      await writer('produtos_fiscal'),
    ];
    for (const [t, tenant] of tenants.entries()) {
      const before = t * spec.productsPerTenant;
      const table = await writeProducts({
        tenant,
        count: spec.productsPerTenant,
        firstId: before + 1,
        seed,
        historyStart,
        asOf,
        products,
        prices,
        fiscal,
        onProduct: (done) => {
          if (done % 1000 === 0) progress('products', before + done, productTotal);
        },
      });
      productTables.set(tenant.id, table);
    }
    await finish('produtos', products);
    await finish('pautas_precos', prices);
    await finish('produtos_fiscal', fiscal);
    await copyRows(
      'regras_fiscais',
      taxRuleRows(
        tenants.map((t) => t.id),
        asOf,
      ),
    );
    await copyRows(
      'estoque',
      tenants.flatMap((t) => stockRows(t.id, productTables.get(t.id))),
    );
    progress('products', productTotal, productTotal);

    const plan = planClients({ tenants, spec, seed, asOf, lastSecond, historyStart });
    const corrent = plan.clients.length + plan.suppliers.length;
    progress('clients', 0, corrent);
    const clients = await writer('corrent');
    for (const c of plan.clients) await clients.write(c.row);
    for (const s of plan.suppliers) await clients.write(s);
    await finish('corrent', clients);
    await copyRows('corrent_condicoes', plan.clients.flatMap(clientTermRows));
    await copyRows('corrent_visitas', plan.clients.flatMap(visitDayRows));
    await copyRows(
      'corrent_fiscal',
      plan.clients.map((c) => clientFiscalRow({ id: c.id, tipoPessoa: String(c.row[3]) })),
    );
    progress('clients', corrent, corrent);

    progress('orders', 0, plan.events.length);
    const writers = {
      orders: await writer('pedidos_venda'),
      items: await writer('pedidos_venda_itens'),
      invoices: await writer('notas_fiscais'),
      invoiceItems: await writer('notas_fiscais_itens'),
      titles: await writer('titulos_receber'),
    };
    await writeOrders({
      events: plan.events,
      clients: plan.clients,
      products: productTables,
      spec,
      seed,
      asOf,
      historyStart,
      writers,
      onOrder: (done, total) => progress('orders', done, total),
    });
    await finish('pedidos_venda', writers.orders);
    await finish('pedidos_venda_itens', writers.items);
    await finish('notas_fiscais', writers.invoices);
    await finish('notas_fiscais_itens', writers.invoiceItems);
    await finish('titulos_receber', writers.titles);
    progress('orders', plan.events.length, plan.events.length);
  } catch (err) {
    await Promise.all(open.map((w) => w.abort(err instanceof Error ? err : new Error(String(err)))));
    throw err;
  }

  const steps = deferred.indexes.length + deferred.foreignKeys.length;
  progress('indexes', 0, steps);
  await restoreConstraints(pool, deferred, (done, total) => progress('indexes', done, total));
  await advanceSequences(pool);
  progress('analyze', 0, 1);
  await analyze(pool);
  progress('analyze', 1, 1);

  return {
    scale: options.scale,
    seed,
    asOf: isoDay(asOf),
    counts,
    ms: Math.round(performance.now() - started),
  };
}
