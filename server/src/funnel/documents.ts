// Collection funil as documents: the representative's cards as their devices hold them
// (docs/sync.md). A leaf of the domain: the service, the push and the collection's definition read it.
import {
  decodeLossless,
  type FunnelStage,
  type Opportunity,
  type SyncOpportunity,
  type SyncRefusal,
} from '@campo/shared';
import type { SyncDoc } from '../changelog/collection.ts';
import { refusalsOf } from '../changelog/refusals.ts';
import type { Tx } from '../db/scope.ts';
import * as q from './queries.ts';

const plain = (v: string | null) => (v === null ? null : decodeLossless(v));

export function toApi(row: q.OpportunityRow): Opportunity {
  return {
    id: row.id,
    estagio: row.estagio as FunnelStage,
    idCliente: row.id_cliente,
    nomeCliente: row.nome_cliente ?? null,
    nomeProspect: plain(row.nome_prospect),
    empresaProspect: plain(row.empresa_prospect),
    idPedido: row.id_pedido,
    valor: row.valor === null ? null : Number(row.valor),
    previsaoFechamento: row.previsao_fechamento,
    observacoes: plain(row.observacoes),
    motivoPerda: plain(row.motivo_perda),
    criadoEm: new Date(row.criado_em).toISOString(),
    atualizadoEm: new Date(row.atualizado_em).toISOString(),
  };
}

export function opportunitySyncDoc(o: Opportunity, codVendedor: number): SyncDoc {
  const doc: SyncOpportunity = { ...o, _deleted: false };
  return { chave: o.id, escopo: codVendedor, documento: o.id, doc };
}

export async function loadOpportunityDocs(tx: Tx, idEmpresa: number, chaves: string[] | null): Promise<SyncDoc[]> {
  const rows = await q.selectTenantOpportunities(tx, idEmpresa, chaves);
  // An edit the server could not take stays on the card, with its reason (changelog/refusals.ts).
  const refused = await refusalsOf(tx, idEmpresa, 'funil', chaves);
  return rows.map((r) => {
    const recusa = refused.get(r.id)?.[0]?.dados as SyncRefusal | undefined;
    return opportunitySyncDoc({ ...toApi(r), ...(recusa ? { recusa } : {}) }, r.cod_vendedor);
  });
}
