// The sales funnel: a representative's opportunities, one kanban card each. Only
// representatives have a funnel. The id is a UUID made by the device, so a card created
// offline is POSTed when the device is back, possibly more than once: the same id with the
// same content answers the existing card; with other content, 409. PATCH changes only the
// fields sent; with baseAtualizadoEm it is refused (409 OPPORTUNITY_CONFLICT, with the
// current card) when the card changed since that version — see shared/src/funnel.ts.
import {
  type ErrorCode,
  encodeLossless,
  type FunnelStage,
  type Opportunity,
  type OpportunityCreate,
  type OpportunityPatch,
} from '@campo/shared';
import { owns, representativeFor, scopeOf } from '../auth/authorize.ts';
import { touchDocuments } from '../changelog/changelog.ts';
import type { Db } from '../db/kysely.ts';
import { type Tx, withScope } from '../db/scope.ts';
import { DomainError, notFound } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { loadOpportunityDocs, opportunitySyncDoc, toApi } from './documents.ts';
import * as q from './queries.ts';

export { toApi };

const lossless = (v: string | null | undefined) =>
  v === undefined ? undefined : v === null ? null : encodeLossless(v);

const rep = (auth: AuthContext): number => representativeFor(auth, 'funnel.use');

const invalid = (code: ErrorCode, detail: string, field: string) =>
  new DomainError(code, detail, { errors: [{ path: `body.${field}`, message: detail }] });

async function checkLinks(
  tx: Tx,
  auth: AuthContext,
  cod: number,
  v: { idCliente?: number | null; idPedido?: number | null },
) {
  if (v.idCliente != null && !(await q.selectPortfolioClient(tx, auth.idEmpresa, cod, v.idCliente))) {
    throw invalid('CLIENT_NOT_IN_PORTFOLIO', `O cliente ${v.idCliente} não está na sua carteira.`, 'idCliente');
  }
  if (v.idPedido != null && !(await q.selectOwnOrder(tx, auth.idEmpresa, cod, v.idPedido))) {
    throw invalid('ORDER_NOT_FOUND', `O pedido ${v.idPedido} não existe entre os seus pedidos.`, 'idPedido');
  }
}

async function load(tx: Tx, auth: AuthContext, cod: number, id: string): Promise<Opportunity> {
  const row = await q.selectOpportunity(tx, auth.idEmpresa, cod, id);
  if (!row) throw notFound('Oportunidade');
  return toApi(row);
}

export async function listOpportunities(db: Db, auth: AuthContext, estagios?: FunnelStage[]) {
  const cod = rep(auth);
  return withScope(db, scopeOf(auth), async (tx) => ({
    items: (await q.selectOpportunities(tx, auth.idEmpresa, cod, estagios)).map(toApi),
  }));
}

/** The fields of a card a device or a PATCH may change (all but its id and its timestamps). */
export const PATCHABLE = [
  'estagio',
  'idCliente',
  'nomeProspect',
  'empresaProspect',
  'idPedido',
  'valor',
  'previsaoFechamento',
  'observacoes',
  'motivoPerda',
] as const;

/** Whether the card already holds every field of the patch. */
function alreadyHolds(current: Opportunity, patch: OpportunityPatch): boolean {
  return PATCHABLE.every((f) => patch[f] === undefined || JSON.stringify(patch[f]) === JSON.stringify(current[f]));
}

/** The card's content as the client gave it, for comparing a repeated POST. */
function content(o: Omit<Opportunity, 'id' | 'nomeCliente' | 'criadoEm' | 'atualizadoEm'>) {
  return JSON.stringify([
    o.estagio,
    o.idCliente,
    o.nomeProspect,
    o.empresaProspect,
    o.idPedido,
    o.valor,
    o.previsaoFechamento,
    o.observacoes,
    o.motivoPerda,
  ]);
}

/**
 * Thrown (rolling the creation back) when a replication push would bring back a card deleted
 * meanwhile; `card` is its last state, from the change log's tombstone.
 */
export class OpportunityDeleted extends Error {
  constructor(readonly card: Record<string, unknown>) {
    super('opportunity deleted');
  }
}

/** How a replication push writes through these functions (funnel/sync.ts); REST leaves them unset. */
export interface PushWrite {
  /** A card id the change log holds a tombstone for is not created again: OpportunityDeleted. */
  deletionWins?: boolean;
  /** An edit whose every field the card already holds is not written again (a duplicate push). */
  unlessApplied?: boolean;
  /** A deletion of a card already gone is done, not a 404 (a duplicate push, a REST delete). */
  ifPresent?: boolean;
}

export async function createOpportunity(
  db: Db,
  auth: AuthContext,
  input: OpportunityCreate,
  at: q.Stamps = {},
  push: PushWrite = {},
): Promise<{ created: boolean; body: Opportunity }> {
  const cod = rep(auth);
  return withScope(db, scopeOf(auth), async (tx) => {
    const wanted = {
      estagio: input.estagio,
      idCliente: input.idCliente ?? null,
      nomeProspect: input.nomeProspect ?? null,
      empresaProspect: input.empresaProspect ?? null,
      idPedido: input.idPedido ?? null,
      valor: input.valor ?? null,
      previsaoFechamento: input.previsaoFechamento ?? null,
      observacoes: input.observacoes ?? null,
      motivoPerda: input.motivoPerda ?? null,
    };
    await checkLinks(tx, auth, cod, wanted);
    const inserted = await q.insertOpportunity(
      tx,
      {
        id: input.id,
        id_empresa: auth.idEmpresa,
        cod_vendedor: cod,
        estagio: wanted.estagio,
        id_cliente: wanted.idCliente,
        nome_prospect: lossless(wanted.nomeProspect) ?? null,
        empresa_prospect: lossless(wanted.empresaProspect) ?? null,
        id_pedido: wanted.idPedido,
        valor: wanted.valor,
        previsao_fechamento: wanted.previsaoFechamento,
        observacoes: lossless(wanted.observacoes) ?? null,
        motivo_perda: lossless(wanted.motivoPerda) ?? null,
      },
      at,
    );
    // Read after the insert: a copy of this push (or another device's) that created the card
    // and a deletion that followed both committed before it, or the insert waited for them.
    const tombstone = inserted && push.deletionWins ? await q.deletedCard(tx, auth.idEmpresa, input.id) : null;
    if (tombstone) throw new OpportunityDeleted(tombstone);
    const existing = await q.selectOpportunity(tx, auth.idEmpresa, cod, input.id);
    if (inserted && existing) {
      const body = toApi(existing);
      await touchDocuments(tx, auth.idEmpresa, 'funil', cod, [opportunitySyncDoc(body, cod)]);
      return { created: true, body };
    }
    // The id is taken: by this representative (a repeated POST) or by someone the caller cannot see.
    if (!existing) {
      throw new DomainError('OPPORTUNITY_ID_TAKEN', 'Este id já pertence a outra oportunidade; gere um novo UUID.');
    }
    const body = toApi(existing);
    if (content(body) !== content(wanted)) {
      throw new DomainError(
        'OPPORTUNITY_ID_TAKEN',
        'Já existe uma oportunidade sua com este id e outro conteúdo; altere-a com PATCH /funil/{id} ou gere um novo UUID.',
        { atual: body },
      );
    }
    return { created: false, body };
  });
}

export async function updateOpportunity(
  db: Db,
  auth: AuthContext,
  id: string,
  patch: OpportunityPatch,
  at: q.Stamps = {},
  push: PushWrite = {},
): Promise<Opportunity> {
  const cod = rep(auth);
  return withScope(db, scopeOf(auth), async (tx) => {
    const owner = await q.selectOwner(tx, auth.idEmpresa, id);
    if (!owner || !owns(auth, owner.cod_vendedor)) throw notFound('Oportunidade');
    const current = await load(tx, auth, cod, id);
    // Under the card's lock: the copy of the push that got here first has committed the edit.
    if (push.unlessApplied && alreadyHolds(current, patch)) return current;
    if (
      patch.baseAtualizadoEm !== undefined &&
      new Date(patch.baseAtualizadoEm).getTime() !== new Date(current.atualizadoEm).getTime()
    ) {
      throw new DomainError(
        'OPPORTUNITY_CONFLICT',
        'A oportunidade foi alterada depois da versão em que esta mudança se baseou; recarregue e tente de novo.',
        { atual: current },
      );
    }
    const merged = {
      estagio: patch.estagio ?? current.estagio,
      idCliente: patch.idCliente !== undefined ? patch.idCliente : current.idCliente,
      nomeProspect: patch.nomeProspect !== undefined ? patch.nomeProspect : current.nomeProspect,
      motivoPerda: patch.motivoPerda !== undefined ? patch.motivoPerda : current.motivoPerda,
    };
    if (merged.estagio === 'perdido' && merged.motivoPerda === null) {
      throw invalid(
        'LOSS_REASON_REQUIRED',
        'Informe o motivo da perda para mover a oportunidade para perdido.',
        'motivoPerda',
      );
    }
    if (merged.idCliente === null && merged.nomeProspect === null) {
      throw invalid(
        'CLIENT_OR_PROSPECT_REQUIRED',
        'A oportunidade precisa de um cliente ou do nome do prospect.',
        'nomeProspect',
      );
    }
    await checkLinks(tx, auth, cod, { idCliente: patch.idCliente, idPedido: patch.idPedido });
    await q.updateOpportunity(
      tx,
      auth.idEmpresa,
      cod,
      id,
      {
        ...(patch.estagio !== undefined ? { estagio: patch.estagio } : {}),
        ...(patch.idCliente !== undefined ? { id_cliente: patch.idCliente } : {}),
        ...(patch.nomeProspect !== undefined ? { nome_prospect: lossless(patch.nomeProspect) } : {}),
        ...(patch.empresaProspect !== undefined ? { empresa_prospect: lossless(patch.empresaProspect) } : {}),
        ...(patch.idPedido !== undefined ? { id_pedido: patch.idPedido } : {}),
        ...(patch.valor !== undefined ? { valor: patch.valor } : {}),
        ...(patch.previsaoFechamento !== undefined ? { previsao_fechamento: patch.previsaoFechamento } : {}),
        ...(patch.observacoes !== undefined ? { observacoes: lossless(patch.observacoes) } : {}),
        ...(patch.motivoPerda !== undefined ? { motivo_perda: lossless(patch.motivoPerda) } : {}),
      },
      // The device's clock only moves the card forward: otherwise the server's.
      at.atualizadoEm && at.atualizadoEm.getTime() > new Date(current.atualizadoEm).getTime() ? at : {},
    );
    const body = await load(tx, auth, cod, id);
    // Through the loader: a refused edit still waiting on the card stays in its document.
    await touchDocuments(tx, auth.idEmpresa, 'funil', cod, await loadOpportunityDocs(tx, auth.idEmpresa, [id]));
    return body;
  });
}

export async function deleteOpportunity(db: Db, auth: AuthContext, id: string, push: PushWrite = {}): Promise<void> {
  const cod = rep(auth);
  await withScope(db, scopeOf(auth), async (tx) => {
    // The DELETE waits for a concurrent one and then finds nothing: the card is gone either way.
    if ((await q.deleteOpportunity(tx, auth.idEmpresa, cod, id)) === 0) {
      if (push.ifPresent) return;
      throw notFound('Oportunidade');
    }
    await touchDocuments(tx, auth.idEmpresa, 'funil', cod, [], [id]);
  });
}
