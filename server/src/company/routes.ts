import {
  LOGO_MAX_BYTES,
  LOGO_MAX_DIMENSION,
  LOGO_UPLOAD_CONTENT_TYPES,
  ZCompany,
  ZMetaPositivacaoDia,
  ZMoneyRules,
} from '@campo/shared';
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { permit } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { DomainError } from '../errors.ts';
import type { AppEnv } from '../http/env.ts';
import { limitBodyTo } from '../http/middleware.ts';
import { badRequest, bearer, errorResponses, json, problem, router } from '../http/openapi.ts';
import { logoProblems } from './logo.ts';
import { getMoneyRules, removeLogo, setLogo, setMetaPositivacaoDia, setMoneyRules } from './service.ts';

const managerOrAdmin = permit('company.manage');
const managerOnly = permit('company.moneyRules');

const logoBytes = {
  type: 'string',
  format: 'binary',
  // For a binary body the length is in bytes; refused with 413 past it (company/logo.ts).
  maxLength: LOGO_MAX_BYTES,
  description: `The image file itself, at most ${LOGO_MAX_BYTES} bytes (500 KiB)`,
} as const;

function acceptedContentType(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const declared = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (!(LOGO_UPLOAD_CONTENT_TYPES as readonly string[]).includes(declared)) {
      throw logoProblems.unsupportedType(declared || null);
    }
    await next();
  };
}

// Refuses a body over the limit while it is read (or at once from Content-Length), so a huge
// upload is never held in memory whole.
const logoBodyLimit = limitBodyTo(LOGO_MAX_BYTES, logoProblems.tooLarge);

const putLogoRoute = createRoute({
  method: 'put',
  path: '/catalog/company/logo',
  tags: ['company'],
  summary: 'Set the company logo (manager, admin)',
  description: [
    'The body is the raw image file, not JSON nor multipart; Content-Type image/png, image/jpeg, image/webp or application/octet-stream.',
    'The type is recognised from the file’s bytes, never from the Content-Type: anything but PNG, JPEG or WebP (SVG, GIF, HTML...) answers 415.',
    `At most 500 KB, read as 500 KiB: ${LOGO_MAX_BYTES} bytes; one byte more answers 413, refused while the body is read.`,
    `Width and height at most ${LOGO_MAX_DIMENSION} pixels; larger, unreadable or truncated images (a PNG must end with its IEND chunk, a JPEG with its EOI marker, a WebP must hold the size its RIFF header declares) answer 422.`,
    'Stored as a data URL and printed on the orders of every representative of the tenant. Answers the company data with the new logo.',
  ].join(' '),
  security: bearer,
  middleware: [managerOrAdmin, acceptedContentType(), logoBodyLimit] as const,
  request: {
    body: {
      required: true,
      description: 'The image file',
      content: Object.fromEntries(LOGO_UPLOAD_CONTENT_TYPES.map((type) => [type, { schema: logoBytes }])),
    },
  },
  responses: {
    200: json(ZCompany, 'The company with its new logo'),
    400: badRequest('LOGO_EMPTY'),
    401: errorResponses[401],
    403: errorResponses[403],
    413: problem('Larger than 500 KiB (512,000 bytes)', 'LOGO_TOO_LARGE'),
    415: problem('Not a PNG, JPEG or WebP image, whatever the Content-Type said', 'LOGO_TYPE_NOT_SUPPORTED'),
    422: problem(
      'Unreadable or truncated image, or wider or taller than the maximum',
      'LOGO_UNREADABLE',
      'LOGO_TRUNCATED',
      'LOGO_TRAILING_DATA',
      'LOGO_DIMENSIONS_TOO_LARGE',
    ),
  },
});

const deleteLogoRoute = createRoute({
  method: 'delete',
  path: '/catalog/company/logo',
  tags: ['company'],
  summary: 'Remove the company logo (manager, admin)',
  description: 'Printed orders go without a logo afterwards. Removing a logo that is not there also answers 204.',
  security: bearer,
  middleware: [managerOrAdmin] as const,
  responses: {
    204: { description: 'Removed' },
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const metaRoute = createRoute({
  method: 'put',
  path: '/dashboard/manager/meta-positivacao-dia',
  tags: ['dashboard'],
  summary: 'Set the daily positivation target (manager, admin)',
  description:
    'Positivation: distinct clients with at least one non-rejected order in the period. The daily target is a count of clients per day; GET /catalog/company and the manager dashboard return it.',
  security: bearer,
  middleware: [managerOrAdmin] as const,
  request: { body: { required: true, content: { 'application/json': { schema: ZMetaPositivacaoDia } } } },
  responses: {
    200: json(ZMetaPositivacaoDia, 'The target saved'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

const moneyRulesNote =
  'Credit policy: what an order beyond the client’s available credit gets (flag: accepted and marked for the approver; block: refused with CREDIT_LIMIT_EXCEEDED; ignore: accepted). Flex: the share of the margin above the list price that goes to the representative’s flex balance, and how many percentage points past a line’s ceiling the balance may pay for. A tenant that never set them has flag and flex off (0 and 0). See docs/credit-and-flex.md.';

const getMoneyRulesRoute = createRoute({
  method: 'get',
  path: '/catalog/company/money-rules',
  tags: ['company'],
  summary: 'The tenant’s credit policy and flex settings (every role)',
  description: `${moneyRulesNote} The company document (GET /catalog/company, and ajustes 'empresa' on the devices) carries them too.`,
  security: bearer,
  responses: {
    200: json(ZMoneyRules, 'The settings in force'),
    401: errorResponses[401],
  },
});

const putMoneyRulesRoute = createRoute({
  method: 'put',
  path: '/catalog/company/money-rules',
  tags: ['company'],
  summary: 'Set the credit policy and flex settings (manager)',
  description: `${moneyRulesNote} All three are given at once. Shares and points from 0 to 100 with at most two decimals; anything else, an unknown policy or an extra field answers 400 naming each field, and nothing changes. The devices receive the new settings with the company document.`,
  security: bearer,
  middleware: [managerOnly] as const,
  request: { body: { required: true, content: { 'application/json': { schema: ZMoneyRules } } } },
  responses: {
    200: json(ZMoneyRules, 'The settings saved'),
    400: errorResponses[400],
    401: errorResponses[401],
    403: errorResponses[403],
  },
});

export function companyRoutes(deps: { db: Db }) {
  return router()
    .openapi(putLogoRoute, async (c) => {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      if (bytes.length === 0) {
        throw new DomainError('LOGO_EMPTY', 'Envie o arquivo da imagem no corpo da requisição.');
      }
      return c.json(await setLogo(deps.db, c.get('auth'), bytes), 200);
    })
    .openapi(deleteLogoRoute, async (c) => {
      await removeLogo(deps.db, c.get('auth'));
      return c.body(null, 204);
    })
    .openapi(metaRoute, async (c) => {
      const saved = await setMetaPositivacaoDia(deps.db, c.get('auth'), c.req.valid('json').metaPositivacaoDia);
      return c.json({ metaPositivacaoDia: saved ?? 0 }, 200);
    })
    .openapi(getMoneyRulesRoute, async (c) => c.json(await getMoneyRules(deps.db, c.get('auth')), 200))
    .openapi(putMoneyRulesRoute, async (c) =>
      c.json(await setMoneyRules(deps.db, c.get('auth'), c.req.valid('json')), 200),
    );
}
