import { z } from 'zod';
import { pageOf, ZPageQuery } from './pagination.ts';

const INT32_MAX = 2_147_483_647;
const code = (what: string) => z.coerce.number().int().min(0).max(INT32_MAX).describe(what);

export const ZBadge = z
  .enum(['Promocao', 'Cond. especial'])
  .describe(
    "'Promocao': a promotion in force reaches the product; 'Cond. especial': a special condition (a rule in force that is not a promotion) does",
  );
export type Badge = z.infer<typeof ZBadge>;

export const ZProductIdParams = z.object({
  id: z.coerce.number().int().min(1).max(INT32_MAX).describe('Product id (the ERP product record)'),
});

/** Widths of a product's photo as served (GET /catalog/{id}/image): the list and cart's, the product page's. */
export const PRODUCT_IMAGE_WIDTHS = { thumb: 128, full: 640 } as const;
export type ProductImageSize = keyof typeof PRODUCT_IMAGE_WIDTHS;

export const ZProductImageQuery = z.object({
  size: z
    .enum(['thumb', 'full'])
    .default('full')
    .describe(
      `thumb: at most ${PRODUCT_IMAGE_WIDTHS.thumb} px wide (the catalog list, the cart); full: at most ${PRODUCT_IMAGE_WIDTHS.full} px wide (the product page). The aspect is kept, a smaller source is never enlarged, and the height is at most twice the width.`,
    ),
});
export type ProductImageQuery = z.infer<typeof ZProductImageQuery>;

export const ZCatalogQuery = ZPageQuery.extend({
  q: z
    .string()
    .trim()
    .max(100)
    .optional()
    .describe('Search words, each of which must match the description or the product code; case and accents ignored'),
  grupo: code('Only products of this group (cod_grupo)').optional(),
  subgrupo: code(
    'Only products of this subgroup (cod_subgrupo); needs `grupo`, since subgroups live in a group',
  ).optional(),
  idPauta: code(
    'Price list the prices and badges are for; default: the tenant’s first active price list (lowest id)',
  ).optional(),
}).superRefine((query, ctx) => {
  if (query.subgrupo !== undefined && query.grupo === undefined) {
    ctx.addIssue({ code: 'custom', path: ['subgrupo'], message: 'informe também o grupo do subgrupo' });
  }
});
export type CatalogQuery = z.infer<typeof ZCatalogQuery>;

const productFields = {
  id: z.number().int().describe('Product id'),
  code: z.string().describe('Product code shown to users (cod_produto)'),
  description: z.string().describe('Description'),
  unit: z.string().nullable().describe('Sales unit (UN, CX, FD, KG...)'),
  category: z
    .string()
    .nullable()
    .describe('productCategory: selects the representative’s discount ceiling for the product'),
  grupo: z.number().int().nullable().describe('Group code (cod_grupo); discount rules select by it'),
  grupoName: z.string().nullable().describe('Group name'),
  subgrupo: z.number().int().nullable().describe('Subgroup code (cod_subgrupo), inside the group'),
  subgrupoName: z.string().nullable().describe('Subgroup name'),
  image: z.string().nullable().describe('Image path or URL as the ERP keeps it'),
};

export const ZCatalogItem = z
  .object({
    ...productFields,
    price: z.number().nullable().describe('List price on the chosen price list; null when the product has none there'),
    badges: z
      .array(ZBadge)
      .describe(
        'Badges of the rules in force that reach the product for the caller on the chosen price list (group and subgroup match or are empty, price list matches or is empty, representative is empty or the caller)',
      ),
  })
  .describe('A product of the catalog');
export type CatalogItem = z.infer<typeof ZCatalogItem>;

export const ZCatalogPage = pageOf(ZCatalogItem, 'A page of active products, ordered by description').extend({
  idPauta: z
    .number()
    .int()
    .nullable()
    .describe('The price list the prices and badges are for; null when the tenant has none'),
});
export type CatalogPage = z.infer<typeof ZCatalogPage>;

export const ZProductPrice = z
  .object({
    idPauta: z.number().int().describe('Price list id'),
    pautaName: z.string().nullable().describe('Price list name'),
    pautaActive: z.boolean().describe('Whether the price list is active in the ERP'),
    price: z.number().describe('List price on that price list'),
  })
  .describe('The product’s price on one price list');

export const ZProductCondition = z
  .object({
    id: z.number().int().describe('Discount rule id'),
    description: z.string().describe('Description of the rule'),
    percent: z.number().describe('Discount percent the rule allows (and pre-fills in the cart)'),
    validFrom: z.string().describe('First day in force (YYYY-MM-DD)'),
    validTo: z.string().nullable().describe('Last day in force, inclusive (YYYY-MM-DD); null: no end'),
    promotion: z.boolean().describe('true for a promotion, false for a special condition'),
    badge: ZBadge,
    idPauta: z.number().int().nullable().describe('Price list the rule is limited to; null: every list'),
  })
  .describe('A commercial condition (discount rule in force) that reaches the product for the caller');
export type ProductCondition = z.infer<typeof ZProductCondition>;

export const ZCatalogProduct = z
  .object({
    ...productFields,
    ean: z.string().nullable().describe('Barcode (EAN-13)'),
    weightKg: z.number().nullable().describe('Weight in kg'),
    active: z.boolean().describe('Whether the product is active; inactive ones do not appear in GET /catalog'),
    updatedAt: z.string().nullable().describe('Last change in the ERP (ISO 8601)'),
    prices: z.array(ZProductPrice).describe('The product’s price on every price list of the tenant that has one'),
    conditions: z
      .array(ZProductCondition)
      .describe('Rules in force that reach the product for the caller, on any price list; highest percent first'),
  })
  .describe('A product with every price and its commercial conditions');
export type CatalogProduct = z.infer<typeof ZCatalogProduct>;

export const ZCatalogSync = z
  .object({
    products: z.number().int().describe('Products of the tenant in the ERP, active or not'),
    activeProducts: z.number().int().describe('Active products (those GET /catalog lists)'),
    prices: z.number().int().describe('Prices on every price list of the tenant'),
    checkedAt: z.string().describe('When the ERP catalog was read (ISO 8601)'),
  })
  .describe('What the ERP catalog of the tenant holds now');
export type CatalogSync = z.infer<typeof ZCatalogSync>;
