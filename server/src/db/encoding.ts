// The ERP database's encoding (LATIN1, WIN1252 or UTF8: provisioning refuses any other),
// which text Campo writes into ERP tables is made to fit (toErpText in shared/src/latin1.ts).
// Asked in the caller's transaction rather than kept per process: one server may serve
// databases of different encodings (tests do), and a database never changes encoding.
import { type ErpEncoding, isErpEncoding } from '@campo/shared';
import { sql } from 'kysely';
import type { Db } from './kysely.ts';
import type { Tx } from './scope.ts';

export async function erpEncoding(db: Db | Tx): Promise<ErpEncoding> {
  const { rows } = await sql<{ codificacao: string }>`select getdatabaseencoding() as codificacao`.execute(db);
  const name = rows[0]?.codificacao ?? '';
  // LATIN1's text fits the other two encodings as well.
  return isErpEncoding(name) ? name : 'LATIN1';
}
