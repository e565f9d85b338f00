// The company's replicated collection (docs/sync.md): ajustes, the company settings with the
// logo (tenant-wide), every representative's ceilings and flex balance (one document 'tetos'
// and one 'flex' each).
import { ZSyncSettings } from '@campo/shared';
import type { CollectionDefinition } from '../changelog/collection.ts';
import { loadSettingsDocs } from './documents.ts';

export const settingsCollection: CollectionDefinition<'ajustes'> = {
  name: 'ajustes',
  representativeOnly: false,
  document: { name: 'SyncSettings', schema: ZSyncSettings },
  load: loadSettingsDocs,
  tenantWideOnlyWithoutRepresentative: true,
};
