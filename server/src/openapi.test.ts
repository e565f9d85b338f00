// Every operation, parameter and field of the API is described in the OpenAPI document, so
// integrators can read what each one means without the code.
import { ERROR_CODES, type ErrorCode, errorStatuses } from '@campo/shared';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { documentedCodes } from './http/openapi.ts';

type BodySchema = { $ref?: string; type?: string; items?: BodySchema; additionalProperties?: unknown };
type Schema = { description?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };

function undescribed(schema: Schema | undefined, path: string, out: string[]): void {
  if (!schema) return;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!property.description) out.push(`${path}.${name}`);
    undescribed(property, `${path}.${name}`, out);
  }
  undescribed(schema.items, `${path}[]`, out);
  for (const option of schema.anyOf ?? []) undescribed(option, path, out);
}

async function servedDocument() {
  // The document is built without touching the database: the pool never connects.
  const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
  const app = createApp({ pool, config: { jwtSecret: 'x'.repeat(40), tokenTtlHours: 1, devLogin: false } });
  const doc = (await (await app.request('/api/v1/openapi.json')).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  };
  await pool.end();
  return doc;
}

describe('OpenAPI document', () => {
  it('makes every JSON request body strict: additionalProperties false (issue #50)', async () => {
    const doc = (await servedDocument()) as unknown as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: BodySchema }> } }>>;
      components?: { schemas?: Record<string, BodySchema> };
    };
    const resolve = (s: BodySchema | undefined): BodySchema | undefined =>
      s?.$ref ? doc.components?.schemas?.[s.$ref.split('/').at(-1) as string] : s;
    const loose: string[] = [];
    let bodies = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const schema = resolve(op.requestBody?.content['application/json']?.schema);
        if (!schema) continue;
        bodies++;
        const object = schema.type === 'array' ? resolve(schema.items) : schema;
        if (object?.additionalProperties !== false) loose.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(loose).toEqual([]);
    expect(bodies).toBeGreaterThan(20);
  });

  it('lists the codes of every error answer of every operation, each under the status the catalogue gives it', async () => {
    const doc = await servedDocument();
    const wrong: string[] = [];
    const listed = new Set<string>();
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        for (const status of Object.keys(op.responses).map(Number)) {
          const response = op.responses[status] as { content?: Record<string, unknown> };
          // Health's 503 is its JSON report, not a problem.
          if (status < 400 || !response.content?.['application/problem+json']) continue;
          const codes = documentedCodes(doc, path, method, status) ?? [];
          if (codes.length === 0) wrong.push(`${method} ${path} ${status}: no codes`);
          for (const code of codes) {
            listed.add(code);
            if (!errorStatuses(code as ErrorCode).includes(status))
              wrong.push(`${method} ${path} ${status}: ${code} answers ${errorStatuses(code as ErrorCode)}`);
          }
        }
        // What the middleware answers for any request (docs/errors.md, "Any route").
        expect(documentedCodes(doc, path, method, 400), `${method} ${path}`).toContain('INVALID_CHARACTER');
        expect(documentedCodes(doc, path, method, 500), `${method} ${path}`).toEqual(['INTERNAL_ERROR']);
      }
    }
    expect(wrong).toEqual([]);
    // Every code some route answers is documented on that route; HTTP_ERROR is the framework's
    // fallback for a refusal no route is known to make.
    expect(ERROR_CODES.filter((code) => !listed.has(code))).toEqual(['HTTP_ERROR']);
  });

  it('describes every parameter and every field of every request and response', async () => {
    // The document is built without touching the database: the pool never connects.
    const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    const app = createApp({ pool, config: { jwtSecret: 'x'.repeat(40), tokenTtlHours: 1, devLogin: false } });
    const doc = (await (await app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            description?: string;
            parameters?: Schema[];
            requestBody?: { content: Record<string, { schema: Schema }> };
            responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
          }
        >
      >;
    };
    await pool.end();
    const mine = Object.entries(doc.paths);
    expect(mine.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const [path, operations] of mine) {
      for (const [method, op] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (!op.description && !(op as { summary?: string }).summary) missing.push(`${where} (operation)`);
        for (const p of op.parameters ?? [])
          if (!p.description) missing.push(`${where} parameter ${JSON.stringify(p)}`);
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
          if (!media.schema.description) missing.push(`${where} body ${type}`);
          undescribed(media.schema, `${where} body`, missing);
        }
        for (const [status, response] of Object.entries(op.responses)) {
          for (const media of Object.values(response.content ?? {}))
            undescribed(media.schema, `${where} ${status}`, missing);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
