// Collection cadastros as documents: the clients a representative registered in the field
// (docs/sync.md). A leaf of the domain: registration, the push and the collection's definition read it.
import type { SyncRegistration } from '@campo/shared';
import type { SyncDoc } from '../changelog/collection.ts';
import type { Tx } from '../db/scope.ts';

export async function loadRegistrationDocs(tx: Tx, idEmpresa: number, chaves: string[] | null): Promise<SyncDoc[]> {
  let q = tx
    .selectFrom('app.clientes_novos')
    .select(['id', 'chave', 'cod_vendedor', 'id_corrent_erp', 'razao_social', 'cnpj_cpf', 'criado_em'])
    .where('id_empresa', '=', idEmpresa);
  if (chaves !== null)
    q = q.where('id', 'in', chaves.length > 0 ? chaves.map(Number).filter(Number.isSafeInteger) : [0]);
  const rows = await q.orderBy('id').execute();
  return rows.map((r) => {
    const doc: SyncRegistration = {
      id: r.chave ?? `cadastro-${r.id}`,
      status: 'created',
      dados: null,
      idCliente: r.id_corrent_erp,
      razaoSocial: r.razao_social,
      documento: r.cnpj_cpf,
      reasons: [],
      criadoEm: new Date(r.criado_em).toISOString(),
      _deleted: false,
    };
    return { chave: String(r.id), escopo: r.cod_vendedor, documento: doc.id, doc };
  });
}
