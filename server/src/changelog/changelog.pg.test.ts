// The change log stores each document with its hash: both come from one build of the
// document. Had PostgreSQL merged the builder into the statement, the document's expression
// (with its subqueries: a client's last order dates, its payment terms) would be computed
// once for the hash and again for the text, on every refresh and every order.
import { beforeAll, expect, it } from 'vitest';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { catalogDocuments } from '../catalog/documents.ts';
import { portfolioDocuments } from '../clients/portfolio-documents.ts';
import { createDb } from '../db/kysely.ts';
import { storedDocuments } from './changelog.ts';

const db = useTestDatabase();
let idEmpresa: number;

beforeAll(async () => {
  const erp = await provisionedErp(db.pool);
  idEmpresa = (erp.reps[0] as { idEmpresa: number }).idEmpresa;
});

/** The statement's plan as EXPLAIN VERBOSE prints it: every expression each node computes. */
async function verbosePlan(statement: ReturnType<typeof storedDocuments>): Promise<string> {
  const compiled = statement.compile(createDb(db.pool));
  const { rows } = await db.pool.query<{ 'QUERY PLAN': string }>(`explain (verbose, generic_plan) ${compiled.sql}`);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

const count = (text: string, part: string) => text.split(part).length - 1;

it.each([
  ['clientes', "'paymentTermIds'", portfolioDocuments],
  ['produtos', "'subgrupoName'", catalogDocuments],
] as const)('a %s document is built once for its hash and its stored text', async (_colecao, key, source) => {
  for (const ids of [null, [1, 2, 3]]) {
    const plan = await verbosePlan(storedDocuments(source, idEmpresa, ids));
    expect(count(plan, 'md5('), plan).toBe(1);
    expect(count(plan, key), plan).toBe(1);
  }
});
