// Collection ajustes: the company document (logo, daily target: printed orders and the
// dashboard work offline), each representative's ceilings (policies/documents.ts) and flex
// balance (flex/documents.ts). Small: the company's and the ceilings' are refreshed whole when a
// manager changes either; a balance's document is written by each move of the balance.

import type { SyncDoc } from '../changelog/collection.ts';
import type { Tx } from '../db/scope.ts';
import { loadFlexDocsOfKeys } from '../flex/documents.ts';
import { loadCeilingDocs } from '../policies/documents.ts';
import { readCompany } from './read.ts';

export async function loadSettingsDocs(tx: Tx, idEmpresa: number, chaves: string[] | null): Promise<SyncDoc[]> {
  const docs: SyncDoc[] = [];
  if (chaves === null || chaves.includes('empresa')) {
    const empresa = await readCompany(tx, idEmpresa).catch(() => null);
    if (empresa) {
      docs.push({
        chave: 'empresa',
        escopo: null,
        documento: 'empresa',
        doc: { id: 'empresa', empresa, tetos: null, _deleted: false },
      });
    }
  }
  if (chaves === null || chaves.some((k) => k.startsWith('tetos@'))) {
    const tetos = await loadCeilingDocs(tx, idEmpresa);
    docs.push(...(chaves === null ? tetos : tetos.filter((d) => chaves.includes(d.chave))));
  }
  if (chaves === null || chaves.some((k) => k.startsWith('flex@'))) {
    docs.push(...(await loadFlexDocsOfKeys(tx, idEmpresa, chaves)));
  }
  return docs;
}
