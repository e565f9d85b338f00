import {
  PAGE_SIZE_MAX,
  ZCatalogPage,
  ZCatalogProduct,
  ZCatalogQuery,
  ZCatalogSyncResult,
  ZCompany,
  ZProductIdParams,
  ZProductImageQuery,
} from '@campo/shared';
import { createRoute } from '@hono/zod-openapi';
import { getCompany } from '../company/service.ts';
import type { Db } from '../db/kysely.ts';
import { bearer, errorResponses, json, problem, router } from '../http/openapi.ts';
import type { ProductImages } from './images.ts';
import { getProduct, getProductImage, listCatalog, type RefreshChangeLog, syncCatalog } from './service.ts';

const tags = ['catalog'];
const rulesNote =
  "Rules in force are judged on the server's business date (America/Sao_Paulo). A representative gets the rules for every representative and those for them; other roles only the rules for every representative.";

const companyRoute = createRoute({
  method: 'get',
  path: '/catalog/company',
  tags: ['company'],
  summary: 'The caller’s company, its logo and daily target',
  description:
    'Company data of the tenant (head office) from the ERP, plus the logo Campo keeps (as a data URL, printed on orders) and the daily positivation target.',
  security: bearer,
  responses: {
    200: json(ZCompany, 'The company'),
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/catalog',
  tags,
  summary: 'List active products',
  description: `Active products of the tenant, ordered by description (ignoring case and accents), with the price on one price list: the idPauta asked (404 when the tenant has no such list) or, when none is asked, the tenant's first active list (lowest id), named in the answer's idPauta. Badges: 'Promocao' when a promotion in force reaches the product on that list, 'Cond. especial' for another rule in force. ${rulesNote} pageSize above ${PAGE_SIZE_MAX} is a 400.`,
  security: bearer,
  request: { query: ZCatalogQuery },
  responses: {
    200: json(ZCatalogPage, 'A page of products'),
    400: errorResponses[400],
    401: errorResponses[401],
    404: problem(
      'Not found, or not in the caller’s scope; or a price list the tenant does not have',
      'NOT_FOUND',
      'PAUTA_NOT_FOUND',
    ),
  },
});

const detailRoute = createRoute({
  method: 'get',
  path: '/catalog/{id}',
  tags,
  summary: 'Product detail',
  description: `A product of the tenant, active or not, with its price on every price list and the commercial conditions (rules in force) that reach it on any list. ${rulesNote}`,
  security: bearer,
  request: { params: ZProductIdParams },
  responses: {
    200: json(ZCatalogProduct, 'The product'),
    400: errorResponses[400],
    401: errorResponses[401],
    404: problem(
      'Not found, or not in the caller’s scope; or a price list the tenant does not have',
      'NOT_FOUND',
      'PAUTA_NOT_FOUND',
    ),
  },
});

/** The device keeps a photo a week (its own copy, offline); the ETag revalidates it after. */
const IMAGE_CACHE_CONTROL = 'private, max-age=604800';

const imageHeaders = {
  ETag: { schema: { type: 'string' as const }, description: 'Strong validator of exactly these bytes' },
  'Cache-Control': { schema: { type: 'string' as const }, description: IMAGE_CACHE_CONTROL },
};

const imageRoute = createRoute({
  method: 'get',
  path: '/catalog/{id}/image',
  tags,
  summary: 'Product photo, resized for the phone',
  description: [
    'The photo the ERP names for the product (produtos.imagem: a path under the server’s images folder, or an http(s) URL the server fetches when its operator allows it), resized and encoded as WebP (docs/api-clients-catalog.md, "GET /catalog/{id}/image").',
    'Any signed-in role, for a product of its tenant (another tenant’s: 404 NOT_FOUND).',
    'With If-None-Match naming the current ETag: 304 without a body.',
    'No photo is a 404 problem, never a 5xx: PRODUCT_IMAGE_NOT_FOUND when the product has none or its file or URL is not there; PRODUCT_IMAGE_UNAVAILABLE when what it names cannot be served (outside the folder, not an image, over 10 MB or 50 million pixels, an internal or slow address, URL fetching off). The app shows its placeholder on any answer but 200.',
  ].join(' '),
  security: bearer,
  request: { params: ZProductIdParams, query: ZProductImageQuery },
  responses: {
    200: {
      description: 'The photo, WebP',
      headers: imageHeaders,
      content: { 'image/webp': { schema: { type: 'string', format: 'binary' } } },
    },
    304: { description: 'The copy the device holds (If-None-Match) is current', headers: imageHeaders },
    400: errorResponses[400],
    401: errorResponses[401],
    404: problem(
      'Not found, or not in the caller’s scope; or the product has no photo that can be served',
      'NOT_FOUND',
      'PRODUCT_IMAGE_NOT_FOUND',
      'PRODUCT_IMAGE_UNAVAILABLE',
    ),
  },
});

/** Whether If-None-Match names this ETag (weak comparison, as RFC 9110 asks for it). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

const syncRoute = createRoute({
  method: 'post',
  path: '/catalog/sync',
  tags,
  summary: 'Synchronise the catalog',
  description:
    'Re-reads the ERP catalog of the tenant (products and prices), answers what it holds now, and refreshes the tenant’s replication change log (products and clients, whoever asks), answering what changed per collection; devices then pull the changes through GET /sync/{collection}/pull (docs/sync.md).',
  security: bearer,
  responses: {
    200: json(ZCatalogSyncResult, 'What the ERP catalog holds and what the change log refresh changed'),
    401: errorResponses[401],
  },
});

/**
 * refreshChangeLog: the sync layer's refresh of every collection, handed down by the app (catalog
 * sits below sync); images: the process's product photos (images.ts), made by the app from its configuration.
 */
export function catalogRoutes(deps: { db: Db; refreshChangeLog: RefreshChangeLog; images: ProductImages }) {
  // /catalog/company is registered before /catalog/{id}: both match it, and the first wins.
  return router()
    .openapi(companyRoute, async (c) => c.json(await getCompany(deps.db, c.get('auth')), 200))
    .openapi(listRoute, async (c) => c.json(await listCatalog(deps.db, c.get('auth'), c.req.valid('query')), 200))
    .openapi(syncRoute, async (c) => c.json(await syncCatalog(deps.db, c.get('auth'), deps.refreshChangeLog), 200))
    .openapi(detailRoute, async (c) => c.json(await getProduct(deps.db, c.get('auth'), c.req.valid('param').id), 200))
    .openapi(imageRoute, async (c) => {
      const { id } = c.req.valid('param');
      const image = await getProductImage(deps.db, c.get('auth'), id, c.req.valid('query').size, deps.images);
      const headers = { ETag: image.etag, 'Cache-Control': IMAGE_CACHE_CONTROL };
      if (matches(c.req.header('if-none-match'), image.etag)) return c.body(null, 304, headers);
      // A view of the kept bytes, not a copy: the same photo answers many requests.
      const body = new Uint8Array(image.body.buffer as ArrayBuffer, image.body.byteOffset, image.body.length);
      return c.body(body, 200, { ...headers, 'Content-Type': 'image/webp' });
    });
}
