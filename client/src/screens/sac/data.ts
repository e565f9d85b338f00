// The representative's tickets and orders from the local store, and the drafts kept while
// typing (localStorage, per ticket): a reply half written in a dead zone survives a reload.
import type { TicketStatus } from '@campo/shared';
import { map } from 'rxjs';
import { useStoreObservable } from '../../data/hooks.ts';
import { readLocal, writeLocal } from '../../data/local-cache.ts';
import { collectionOf } from '../../db/database.ts';
import type { OrderDoc, TicketDoc } from '../../db/schemas.ts';

export const STATUS_LABELS: Record<TicketStatus, string> = {
  aberto: 'Aberto',
  respondido: 'Respondido',
  resolvido: 'Resolvido',
  cancelado: 'Cancelado',
};

export const STATUS_HINTS: Record<TicketStatus, string> = {
  aberto: 'aguardando a empresa',
  respondido: 'a empresa respondeu',
  resolvido: 'encerrado',
  cancelado: 'encerrado',
};

export function isClosed(status: string): boolean {
  return status === 'resolvido' || status === 'cancelado';
}

export function useTickets(): TicketDoc[] | null {
  return useStoreObservable<TicketDoc[] | null>(
    (s) =>
      collectionOf(s.db, 'chamados')
        .find()
        .$.pipe(
          map((docs) =>
            docs
              .map((d) => d.toJSON() as TicketDoc)
              .sort((a, b) => (a.atualizadoEm < b.atualizadoEm ? 1 : a.atualizadoEm > b.atualizadoEm ? -1 : 0)),
          ),
        ),
    null,
  );
}

export type PlacedOrder = NonNullable<OrderDoc['order']>;

/** Orders the server holds (a ticket is about a real order, never a queued draft). */
export function usePlacedOrders(): PlacedOrder[] {
  return useStoreObservable<PlacedOrder[]>(
    (s) =>
      collectionOf(s.db, 'pedidos')
        .find()
        .$.pipe(
          map((docs) =>
            docs
              .map((d) => (d.toJSON() as OrderDoc).order)
              .filter((o): o is PlacedOrder => o !== null && o !== undefined)
              .sort((a, b) => (a.criadoEm < b.criadoEm ? 1 : -1)),
          ),
        ),
    [],
  );
}

const isString = (v: unknown): v is string => typeof v === 'string';

export function readReplyDraft(ticketId: string): string {
  return readLocal(`sac.resposta.${ticketId}`, isString) ?? '';
}

export function writeReplyDraft(ticketId: string, text: string): void {
  writeLocal(`sac.resposta.${ticketId}`, text === '' ? null : text);
}

export interface NewTicketDraft {
  kind: 'campo' | 'erp';
  idPedido: string;
  numPedErp: string;
  assunto: string;
  mensagem: string;
}

export const EMPTY_TICKET: NewTicketDraft = { kind: 'campo', idPedido: '', numPedErp: '', assunto: '', mensagem: '' };

function isTicketDraft(v: unknown): v is NewTicketDraft {
  if (!v || typeof v !== 'object') return false;
  const d = v as Record<string, unknown>;
  return (
    (d.kind === 'campo' || d.kind === 'erp') &&
    ['idPedido', 'numPedErp', 'assunto', 'mensagem'].every((k) => typeof d[k] === 'string')
  );
}

/** A ticket's subject, order and first message as the new-ticket form holds them. */
export function draftOf(t: TicketDoc, mensagem: string): NewTicketDraft {
  return {
    kind: t.idPedido === null && t.numPedErp !== null ? 'erp' : 'campo',
    idPedido: t.idPedido === null ? '' : String(t.idPedido),
    numPedErp: t.numPedErp === null ? '' : String(t.numPedErp),
    assunto: t.assunto,
    mensagem,
  };
}

export function readTicketDraft(): NewTicketDraft {
  return readLocal('sac.novo', isTicketDraft) ?? EMPTY_TICKET;
}

export function writeTicketDraft(d: NewTicketDraft | null): void {
  writeLocal('sac.novo', d);
}

const when = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' });

export function formatWhen(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : when.format(d);
}
