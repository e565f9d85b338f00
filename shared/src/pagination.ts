import { z } from 'zod';

export const PAGE_SIZE_DEFAULT = 50;
/** Above this a list answers 400: a silent clamp would let a client believe it had every row. */
export const PAGE_SIZE_MAX = 100;

/** Query parameters of every paginated list. */
export const ZPageQuery = z.object({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(1)
    .describe('Page number, starting at 1; a page past the end answers an empty `items`'),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(PAGE_SIZE_MAX)
    .default(PAGE_SIZE_DEFAULT)
    .describe(`Items per page, 1 to ${PAGE_SIZE_MAX} (default ${PAGE_SIZE_DEFAULT}); above the maximum is a 400`),
});
export type PageQuery = z.infer<typeof ZPageQuery>;

/** The envelope of a paginated list of `item`. */
export function pageOf<T extends z.ZodType>(item: T, description: string) {
  return z
    .object({
      items: z.array(item).describe('The items of this page, in the list’s order'),
      page: z.number().int().describe('The page answered (1-based)'),
      pageSize: z.number().int().describe('The page size used'),
      total: z.number().int().describe('How many items match the filters, over every page'),
    })
    .describe(description);
}
