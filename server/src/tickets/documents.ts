// Collection chamados as documents: a representative's tickets with their threads, as their
// devices hold them (docs/sync.md). A leaf of the domain: the service, the push and the sync
// registry read it.
import { decodeLossless, type SyncTicket, type TicketStatus } from '@campo/shared';
import type { SyncDoc } from '../changelog/collection.ts';
import { refusalsOf } from '../changelog/refusals.ts';
import type { Tx } from '../db/scope.ts';
import * as q from './queries.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

export async function loadTicketDocs(tx: Tx, idEmpresa: number, chaves: string[] | null): Promise<SyncDoc[]> {
  const ids = chaves === null ? null : chaves.map(Number).filter(Number.isSafeInteger);
  const tickets = await q.selectTenantTickets(tx, idEmpresa, ids);
  const messages = await q.selectTenantMessages(
    tx,
    idEmpresa,
    tickets.map((t) => t.id),
  );
  const byTicket = new Map<number, SyncTicket['mensagens']>();
  for (const m of messages) {
    const list = byTicket.get(m.id_chamado) ?? [];
    list.push({
      id: m.chave ?? `msg-${m.id}`,
      autorTipo: m.autor_tipo as 'representante' | 'empresa',
      autorNome: decodeLossless(m.autor_nome),
      texto: decodeLossless(m.texto),
      criadoEm: iso(m.criado_em),
    });
    byTicket.set(m.id_chamado, list);
  }
  // Replies the server could not take stay in the thread, with their reason (changelog/refusals.ts).
  const refused = await refusalsOf(
    tx,
    idEmpresa,
    'chamados',
    tickets.map((t) => String(t.id)),
  );
  for (const [chave, list] of refused) {
    const thread = byTicket.get(Number(chave)) ?? [];
    thread.push(...list.map((r) => r.dados as SyncTicket['mensagens'][number]));
    byTicket.set(Number(chave), thread);
  }
  return tickets.map((t) => {
    const doc: SyncTicket = {
      id: t.chave ?? `chamado-${t.id}`,
      idChamado: t.id,
      idPedido: t.id_pedido,
      numPedSar: t.num_ped_sar,
      numPedErp: t.num_ped_erp,
      idCliente: t.id_cliente,
      nomeCliente: t.nome_cliente,
      assunto: decodeLossless(t.assunto),
      status: t.status as TicketStatus,
      mensagens: byTicket.get(t.id) ?? [],
      criadoEm: iso(t.criado_em),
      atualizadoEm: iso(t.atualizado_em),
      _deleted: false,
    };
    return { chave: String(t.id), escopo: t.cod_vendedor, documento: doc.id, doc };
  });
}
