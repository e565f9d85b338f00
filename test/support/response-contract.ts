// Every answer of the test app is checked against the OpenAPI document the same app serves:
// a JSON body must match the schema its route declares for that status and media type, and the
// status itself must be declared. The document is what the client's types are generated from
// (pnpm api:types), so a body that strays from it is a screen typed on a lie. Objects are
// checked closed (no undeclared field): the served document leaves zod's objects open, and only
// a schema that says so (a problem's RFC 9457 extension members, `.catchall`) keeps extra fields.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { API_BASE } from '@campo/shared';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its plugin is module.exports, which also carries it as `default`.
const addFormats = addFormatsModule.default;

type Fetch = (request: Request, ...rest: never[]) => Response | Promise<Response>;

interface MediaObject {
  schema?: unknown;
}
interface ResponseObject {
  content?: Record<string, MediaObject>;
}
interface Operation {
  responses?: Record<string, ResponseObject>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, unknown>;
}

/** A response that does not match its route's declared answer; the message says where. */
export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

/**
 * What the app's middleware may answer to any route, declared there or not (server/src/http/
 * middleware.ts): a NUL in the URL or a body that is not JSON (400), a body over the limit
 * (413), an unexpected error (500). Each must still be a problem with one of these codes.
 */
const ANY_ROUTE: Record<number, string[]> = {
  400: ['INVALID_CHARACTER', 'MALFORMED_JSON', 'UNSUPPORTED_CHARACTER'],
  413: ['PAYLOAD_TOO_LARGE'],
  500: ['INTERNAL_ERROR'],
};

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

function closeObjects(node: unknown, partOfAllOf = false): void {
  if (Array.isArray(node)) {
    for (const item of node) closeObjects(item, partOfAllOf);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  // zod's plain object states nothing on extra fields; `.catchall()` and records state it. A
  // member of an allOf (a route's narrowing of a problem's `code`) names only some of the
  // fields the whole declares: closing it would refuse the others.
  if (!partOfAllOf && o.type === 'object' && o.properties && !('additionalProperties' in o)) {
    o.additionalProperties = false;
  }
  for (const [key, value] of Object.entries(o)) closeObjects(value, key === 'allOf');
}

interface Route {
  template: string;
  pattern: RegExp;
  params: number;
  operations: Record<string, Operation>;
}

function compileChecker(text: string) {
  const doc = JSON.parse(text) as Document;
  closeObjects(doc);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('binary', true);

  // The most literal template first: /catalog/company before /catalog/{id}.
  const routes: Route[] = Object.entries(doc.paths)
    .map(([template, operations]) => ({
      template,
      operations,
      params: (template.match(/\{/g) ?? []).length,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
    }))
    .sort((a, b) => a.params - b.params);

  const validators = new Map<string, ValidateFunction>();
  const validator = (key: string, schema: unknown) => {
    let v = validators.get(key);
    if (!v) {
      // The document's `#/components/...` references resolve inside this root.
      v = ajv.compile({ components: doc.components, allOf: [schema] });
      validators.set(key, v);
    }
    return v;
  };

  return async (request: Request, response: Response): Promise<void> => {
    const url = new URL(request.url);
    if (!url.pathname.startsWith(`${API_BASE}/`) || request.method === 'HEAD') return;
    const path = url.pathname.slice(API_BASE.length);
    const method = request.method.toLowerCase();
    const route = routes.find((r) => r.operations[method] && r.pattern.test(path));
    // Not a documented operation: the 404 of an unknown path, the document itself.
    if (!route) return;
    const where = `${request.method} ${route.template} answered ${response.status}`;
    const declared = route.operations[method]?.responses?.[String(response.status)];
    if (!declared) {
      const codes = ANY_ROUTE[response.status];
      const type = response.headers.get('content-type') ?? '';
      const code = type.includes('problem+json')
        ? (JSON.parse(await textOf(response)) as { code?: unknown }).code
        : null;
      if (codes && typeof code === 'string' && codes.includes(code)) return;
      throw new ContractViolation(`${where} (${code ?? type}), a status the OpenAPI document does not declare`);
    }
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    // A stream never ends: its events are not JSON bodies to check.
    if (type === 'text/event-stream' && declared.content?.[type]) return;
    const media = declared.content?.[type];
    if (!media) {
      const body = response.body ? await textOf(response) : '';
      if (!declared.content && body === '') return;
      const wanted = Object.keys(declared.content ?? {}).join(', ') || 'no body';
      throw new ContractViolation(`${where} as ${type || 'no type'}; the document declares ${wanted}`);
    }
    if (!type.endsWith('json') || media.schema === undefined) return;
    const body: unknown = JSON.parse(await textOf(response));
    const validate = validator(`${method} ${route.template} ${response.status} ${type}`, media.schema);
    if (validate(body)) return;
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
    throw new ContractViolation(`${where} with a body off its schema:\n  ${errors.join('\n  ')}`);
  };
}

/**
 * The body's text, decoded as its Content-Encoding says: `app.request` hands the bytes over as
 * the server sent them, where a client's fetch would have decoded them.
 */
async function textOf(response: Response): Promise<string> {
  const bytes = Buffer.from(await response.clone().arrayBuffer());
  const encoding = response.headers.get('content-encoding');
  if (encoding === 'br') return brotliDecompressSync(bytes).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(bytes).toString('utf8');
  if (encoding) throw new ContractViolation(`an answer in ${encoding}, which no client of the API is offered`);
  return bytes.toString('utf8');
}

const checkers = new Map<string, ReturnType<typeof compileChecker>>();

/**
 * Wraps `fetch` so that every answer is checked (see the top of this file) before it is
 * returned; a mismatch throws ContractViolation, which fails the test that made the request.
 */
export function checkedFetch<F extends Fetch>(fetch: F): F {
  let checker: Promise<ReturnType<typeof compileChecker>> | undefined;
  const load = async () => {
    const res = await fetch(new Request(`http://localhost${API_BASE}/openapi.json`));
    const text = await res.text();
    let c = checkers.get(text);
    if (!c) {
      c = compileChecker(text);
      checkers.set(text, c);
    }
    return c;
  };
  return (async (request: Request, ...rest: never[]) => {
    const response = await fetch(request, ...rest);
    checker ??= load();
    // Under a browser test the HTTP server answers the throw with a 500 and logs it.
    await (await checker)(request, response);
    return response;
  }) as F;
}
