// The catalog: active products with their price on one price list and the badges of the rules
// in force that reach them for the caller. The server's own business date (America/Sao_Paulo)
// decides which rules are in force, never the device's.
import {
  type Badge,
  businessDate,
  type CatalogItem,
  type CatalogPage,
  type CatalogProduct,
  type CatalogQuery,
  type CatalogSyncResult,
  decodeLossless,
  type ProductCondition,
  type ProductImageSize,
  searchTerms,
} from '@campo/shared';
import { scopeOf } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { type Tx, withScope } from '../db/scope.ts';
import { DomainError, notFound } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { log } from '../log.ts';
import type { ProductImage, ProductImages } from './images.ts';
import {
  type CatalogRow,
  countCatalog,
  countErpPrices,
  countErpProducts,
  type RuleReach,
  type RuleRow,
  selectCatalogPage,
  selectDefaultPauta,
  selectPauta,
  selectProduct,
  selectProductImage,
  selectProductPrices,
  selectRulesInForce,
} from './queries.ts';

const BADGE_PROMOTION: Badge = 'Promocao';
const BADGE_SPECIAL: Badge = 'Cond. especial';

const badgeOf = (rule: Pick<RuleRow, 'promocao'>): Badge => (rule.promocao ? BADGE_PROMOTION : BADGE_SPECIAL);

/**
 * A rule reaches a product when its group and subgroup are empty or the product's, and its
 * price list is empty or the one asked for (`idPauta` undefined: any list). The representative
 * and the dates were settled by the query.
 */
export function reaches(
  rule: Pick<RuleRow, 'grupo' | 'subgrupo' | 'id_pauta'>,
  product: { grupo: number | null; subgrupo: number | null },
  idPauta: number | null | undefined,
): boolean {
  return (
    (rule.grupo === null || rule.grupo === product.grupo) &&
    (rule.subgrupo === null || rule.subgrupo === product.subgrupo) &&
    (idPauta === undefined || rule.id_pauta === null || rule.id_pauta === idPauta)
  );
}

/** The badges for a product, promotion first, each once. */
export function badgesFor(
  rules: RuleRow[],
  product: { grupo: number | null; subgrupo: number | null },
  idPauta: number | null,
): Badge[] {
  const matching = rules.filter((r) => reaches(r, product, idPauta));
  const badges: Badge[] = [];
  if (matching.some((r) => r.promocao)) badges.push(BADGE_PROMOTION);
  if (matching.some((r) => !r.promocao)) badges.push(BADGE_SPECIAL);
  return badges;
}

function ruleReach(auth: AuthContext, now: Date): RuleReach {
  return { idEmpresa: auth.idEmpresa, today: businessDate(now), codVendedor: scopeOf(auth).codVendedor };
}

/** The asked price list, which must be the tenant's; or, when none is asked, the tenant's first. */
async function pautaFor(tx: Tx, idEmpresa: number, asked: number | undefined): Promise<number | null> {
  if (asked === undefined) return (await selectDefaultPauta(tx, idEmpresa))?.id_pauta ?? null;
  const found = await selectPauta(tx, idEmpresa, asked);
  if (!found) throw new DomainError('PAUTA_NOT_FOUND', `Tabela de preço ${asked} não encontrada.`);
  return asked;
}

/** The product fields a list item and a product detail share. */
function productFields(row: Omit<CatalogRow, 'preco'>) {
  return {
    id: Number(row.id_produto),
    code: row.cod_produto ?? '',
    description: row.descricao ?? '',
    unit: row.unidade,
    category: row.categoria,
    grupo: row.cod_grupo,
    grupoName: row.descricao_grupo,
    subgrupo: row.cod_subgrupo,
    subgrupoName: row.descricao_subgrupo,
    image: row.imagem,
  };
}

function toItem(row: CatalogRow, rules: RuleRow[], idPauta: number | null): CatalogItem {
  const product = { grupo: row.cod_grupo, subgrupo: row.cod_subgrupo };
  return {
    ...productFields(row),
    price: row.preco ?? null,
    badges: badgesFor(rules, product, idPauta),
  };
}

export function listCatalog(db: Db, auth: AuthContext, query: CatalogQuery, now = new Date()): Promise<CatalogPage> {
  const filters = { terms: searchTerms(query.q), grupo: query.grupo, subgrupo: query.subgrupo };
  return withScope(db, scopeOf(auth), async (tx) => {
    const idPauta = await pautaFor(tx, auth.idEmpresa, query.idPauta);
    const total = await countCatalog(tx, auth.idEmpresa, filters);
    const offset = (query.page - 1) * query.pageSize;
    const rows =
      offset < total ? await selectCatalogPage(tx, auth.idEmpresa, filters, idPauta, query.pageSize, offset) : [];
    const rules = rows.length > 0 ? await selectRulesInForce(tx, ruleReach(auth, now)) : [];
    return {
      items: rows.map((r) => toItem(r, rules, idPauta)),
      page: query.page,
      pageSize: query.pageSize,
      total,
      idPauta,
    };
  });
}

function toCondition(rule: RuleRow): ProductCondition {
  return {
    id: Number(rule.id),
    description: decodeLossless(rule.descricao),
    percent: rule.percent,
    validFrom: rule.vigencia_inicio,
    validTo: rule.vigencia_fim,
    promotion: rule.promocao,
    badge: badgeOf(rule),
    idPauta: rule.id_pauta,
  };
}

/** Any product of the tenant, active or not: a device may still hold one the ERP retired. */
export function getProduct(db: Db, auth: AuthContext, id: number, now = new Date()): Promise<CatalogProduct> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const row = await selectProduct(tx, auth.idEmpresa, id);
    if (!row) throw notFound('Produto');
    const prices = await selectProductPrices(tx, auth.idEmpresa, id);
    const rules = await selectRulesInForce(tx, ruleReach(auth, now));
    const product = { grupo: row.cod_grupo, subgrupo: row.cod_subgrupo };
    return {
      ...productFields(row),
      ean: row.ean,
      weightKg: row.peso_kg,
      active: row.ativo ?? false,
      updatedAt: row.atualizado_em ? row.atualizado_em.toISOString() : null,
      prices: prices.map((p) => ({
        idPauta: Number(p.id_pauta),
        pautaName: p.descricao,
        pautaActive: p.ativo ?? false,
        price: p.preco ?? 0,
      })),
      conditions: rules.filter((r) => reaches(r, product, undefined)).map(toCondition),
    };
  });
}

/**
 * Each unusable photo is said once per process, not at every request: a phone downloading its
 * photos for offline use asks for every product, and a server without an images folder would
 * otherwise write thousands of the same line. Bounded: past it, everything is said again.
 */
const SAID_MAX = 5_000;
const said = new Set<string>();
function firstTime(imagem: string | null, reason: string): boolean {
  const key = `${imagem}\u0000${reason}`;
  if (said.has(key)) return false;
  if (said.size >= SAID_MAX) said.clear();
  said.add(key);
  return true;
}

/**
 * The product's photo at `size`. The ERP's reference is read in a short transaction, closed
 * before the photo is read or fetched: a slow image URL must not hold a database connection.
 */
export async function getProductImage(
  db: Db,
  auth: AuthContext,
  id: number,
  size: ProductImageSize,
  images: ProductImages,
): Promise<ProductImage> {
  const row = await withScope(db, scopeOf(auth), (tx) => selectProductImage(tx, auth.idEmpresa, id));
  if (!row) throw notFound('Produto');
  try {
    return await images.get(row.imagem, size);
  } catch (err) {
    // A photo the ERP names but Campo cannot serve is the operator's to fix (a path outside the
    // folder, an internal URL, a broken file): said in the log, where they look.
    if (err instanceof DomainError && err.code === 'PRODUCT_IMAGE_UNAVAILABLE' && firstTime(row.imagem, err.message)) {
      log.warn('product image unavailable', { idProduto: id, imagem: row.imagem, reason: err.message });
    }
    throw err;
  }
}

/** Refreshes every collection's change log of the tenant (sync/service.ts refreshAll). */
export type RefreshChangeLog = (db: Db, idEmpresa: number) => Promise<CatalogSyncResult['changeLog']>;

/**
 * Reads the ERP catalog of the tenant afresh, says what it holds, and refreshes the tenant's
 * replication change log (every collection) so that devices pull what changed. The
 * refresh runs tenant-wide whoever asks: every portfolio's documents are rebuilt.
 */
export async function syncCatalog(
  db: Db,
  auth: AuthContext,
  refreshChangeLog: RefreshChangeLog,
  now = new Date(),
): Promise<CatalogSyncResult> {
  const counts = await withScope(db, { idEmpresa: auth.idEmpresa, codVendedor: null }, async (tx) => {
    const { products, active } = await countErpProducts(tx, auth.idEmpresa);
    const prices = await countErpPrices(tx, auth.idEmpresa);
    return { products, activeProducts: active, prices, checkedAt: now.toISOString() };
  });
  return { ...counts, changeLog: await refreshChangeLog(db, auth.idEmpresa) };
}
