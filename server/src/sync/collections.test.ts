// The registry's definitions say what the shared contracts say of each collection: who may
// pull it and who may push it (the OpenAPI document and the client read the shared lists), the
// collections served ahead of the app included.
import { SYNC_SERVED, SYNC_SERVED_REPRESENTATIVE_ONLY, SYNC_SERVED_WRITABLE } from '@campo/shared';
import { expect, it } from 'vitest';
import { COLLECTIONS } from './collections.ts';

it.each(SYNC_SERVED)('defines %s as the shared contracts do', (colecao) => {
  const definition = COLLECTIONS[colecao];
  expect(definition.name).toBe(colecao);
  expect(definition.sql?.colecao ?? colecao).toBe(colecao);
  expect(definition.representativeOnly).toBe((SYNC_SERVED_REPRESENTATIVE_ONLY as readonly string[]).includes(colecao));
  expect(definition.push !== undefined).toBe((SYNC_SERVED_WRITABLE as readonly string[]).includes(colecao));
});
