// db/types.ts is generated (pnpm db:types): this fails when the committed file no longer matches
// what the SQL in sql/ provisions, so a migration or view change cannot leave the types behind.
import { expect, it } from 'vitest';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { committedDbTypes, generateDbTypes, provisionForTypes } from './db-types.ts';

const db = useTestDatabase();

it('db/types.ts is what `pnpm db:types` generates from the provisioned schema', async () => {
  await provisionForTypes(db.url);
  const generated = await generateDbTypes(db.url);
  const committed = await committedDbTypes();
  expect(generated, 'server/src/db/types.ts is out of date: run `pnpm db:types` and commit it').toBe(committed);
});
