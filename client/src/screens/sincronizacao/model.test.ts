import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../db/outbox.ts';
import type { OpportunityDoc, RegistrationDoc, TicketDoc, VisitDoc } from '../../db/schemas.ts';
import { createSyncHealth } from '../../db/sync-health.ts';
import { SyncHttpError } from '../../db/sync-state.ts';
import {
  ageLabel,
  bytesLabel,
  completeSyncAt,
  evictionWarning,
  itemProgressLabel,
  photoPhaseMessage,
  photoProgressLabel,
  storageFullMessage,
  triesLabel,
  waitingItems,
  waitingSummary,
  whenLabel,
} from './model.ts';

const entry = (id: string, state: OutboxEntry['state'], queuedAt: string, idCliente = 10): OutboxEntry => ({
  id,
  state,
  status: state === 'refused' ? 'refused' : state === 'accepted' ? 'pending_approval' : 'queued',
  draft: { idCliente, itens: [{ idProduto: 1, quantidade: 1, descontoPercent: 0 }] },
  order: null,
  reasons: state === 'refused' ? [{ code: 'CLIENT_BLOCKED', message: 'Cliente bloqueado no financeiro.' }] : [],
  queuedAt,
  updatedAt: queuedAt,
});

describe('the items waiting to leave', () => {
  it('names each by what it is, with its age, tries and last error or refusal, oldest first', () => {
    const health = createSyncHealth({ now: () => new Date('2026-03-01T12:00:00.000Z') });
    health.pushStarted('pedidos', ['o1']);
    health.pushFailed('pedidos', ['o1'], new TypeError('Failed to fetch'));
    health.pushStarted('pedidos', ['o1']);
    health.pushFailed('pedidos', ['o1'], new SyncHttpError(502, undefined, 'bad gateway'));
    health.pushStarted('funil', ['f1']);
    const items = waitingItems({
      orders: [
        entry('o1', 'queued', '2026-03-01T10:00:00.000Z'),
        entry('o2', 'refused', '2026-02-27T10:00:00.000Z', 11),
        entry('o3', 'accepted', '2026-02-20T10:00:00.000Z'),
      ],
      clientName: (id) => (id === 10 ? 'Mercado Boa Vista' : null),
      funil: [
        { id: 'f1', nomeCliente: null, nomeProspect: 'Padaria Central', recusa: null } as unknown as OpportunityDoc,
        { id: 'f2', nomeCliente: 'Sem pressa', recusa: null } as unknown as OpportunityDoc,
      ],
      chamados: [
        {
          id: 'c1',
          assunto: 'Troca de mercadoria',
          recusa: null,
          mensagens: [{ id: 'm', recusa: { code: 'TICKET_CLOSED', message: 'O chamado foi encerrado.' } }],
        } as unknown as TicketDoc,
      ],
      cadastros: [
        {
          id: 'r1',
          status: 'queued',
          razaoSocial: 'Loja Nova Ltda',
          documento: null,
          reasons: [],
        } as unknown as RegistrationDoc,
        {
          id: 'r2',
          status: 'created',
          razaoSocial: 'Já criada',
          documento: null,
          reasons: [],
        } as unknown as RegistrationDoc,
      ],
      visitas: [
        { id: 'v1', idCliente: 10, nomeCliente: null, entradaEm: '2026-02-28T10:00:00.000Z', recusa: null },
        { id: 'v2', idCliente: 12, nomeCliente: 'Bar do Zé', entradaEm: '2026-02-26T10:00:00.000Z', recusa: null },
        {
          id: 'v3',
          idCliente: 13,
          nomeCliente: 'Empório',
          entradaEm: '2026-02-25T10:00:00.000Z',
          recusa: { code: 'CLIENT_NOT_IN_PORTFOLIO', message: 'O cliente não é da sua carteira.' },
        },
      ] as unknown as VisitDoc[],
      unsent: { funil: new Set(['f1']), visitas: new Set(['v1']) },
      inFlight: new Set(['o1']),
      health: health.get(),
    });
    expect(items.map((i) => [i.label, i.state, i.tries, i.lastError])).toEqual([
      ['Visita a Empório', 'refused', 0, 'O cliente não é da sua carteira.'],
      ['Pedido para o cliente 11', 'refused', 0, 'Cliente bloqueado no financeiro.'],
      ['Visita a Mercado Boa Vista', 'waiting', 0, null],
      ['Pedido para Mercado Boa Vista', 'sending', 2, 'Servidor indisponível; tentaremos de novo em instantes.'],
      ['Oportunidade Padaria Central', 'waiting', 1, null],
      ['Chamado “Troca de mercadoria”', 'refused', 0, 'O chamado foi encerrado.'],
      ['Cliente novo Loja Nova Ltda', 'waiting', 0, null],
    ]);
    expect(items[3]?.href).toBe('/pedidos/o1');
    expect(items[0]?.href).toBe('/clientes/13');
  });
});

describe('the last complete sync', () => {
  it('is the oldest of the collections’ last complete pulls, once every one has completed', () => {
    const h = createSyncHealth({ now: () => new Date('2026-03-01T10:00:00.000Z') });
    h.pullComplete('produtos');
    expect(completeSyncAt(['produtos', 'clientes'], h.get())).toBeNull();
    const later = createSyncHealth({
      persist: {
        load: () => ({ pulls: { ...h.get().pulls, clientes: '2026-03-01T11:00:00.000Z' } }),
        save: () => undefined,
      },
    });
    expect(completeSyncAt(['produtos', 'clientes'], later.get())).toBe('2026-03-01T10:00:00.000Z');
  });
});

describe('words and numbers', () => {
  const now = new Date('2026-03-04T12:00:00.000Z');
  it('says ages, tries and sizes the Brazilian way', () => {
    expect(ageLabel('2026-03-01T11:00:00.000Z', now)).toBe('há 3 dias');
    expect(ageLabel('2026-03-04T11:55:00.000Z', now)).toBe('há 5 minutos');
    expect(ageLabel('2026-03-04T09:00:00.000Z', now)).toBe('há 3 horas');
    expect(ageLabel('2026-03-04T11:59:30.000Z', now)).toBe('agora há pouco');
    expect(triesLabel(0)).toBe('nenhuma tentativa ainda');
    expect(triesLabel(1)).toBe('1 tentativa');
    expect(triesLabel(4)).toBe('4 tentativas');
    expect(bytesLabel(12 * 1024 * 1024)).toBe('12 MB');
    expect(bytesLabel(2 * 1024 ** 3)).toBe('2 GB');
    expect(bytesLabel(1.5 * 1024 ** 3)).toBe('1,5 GB');
    expect(bytesLabel(300 * 1024)).toBe('300 KB');
    expect(whenLabel(null, now)).toBe('ainda não');
    expect(whenLabel('2026-03-01T15:07:00.000Z', now)).toMatch(/^01\/03 às \d\d:07$/);
  });

  it('counts what waits and what was refused with their nouns, never "recusado(s)"', () => {
    expect(waitingSummary(0, 1)).toBe('1 item recusado pelo servidor.');
    expect(waitingSummary(2, 0)).toBe('2 itens aguardando envio.');
    expect(waitingSummary(1, 3)).toBe('1 item aguardando envio e 3 itens recusados pelo servidor.');
  });

  it('never says "nenhuma tentativa ainda" of an item the server refused', () => {
    const since = '2026-03-04T11:55:00.000Z';
    expect(itemProgressLabel({ since, tries: 0, state: 'refused' }, now)).toBe(
      'Feito há 5 minutos · enviado e recusado pelo servidor',
    );
    expect(itemProgressLabel({ since: null, tries: 3, state: 'refused' }, now)).toBe(
      'enviado 3 vezes e recusado pelo servidor',
    );
    expect(itemProgressLabel({ since, tries: 0, state: 'waiting' }, now)).toBe(
      'Na fila há 5 minutos · nenhuma tentativa ainda',
    );
  });

  it('warns about eviction only when the browser refused and work is waiting', () => {
    expect(evictionWarning(true, 3)).toBeNull();
    expect(evictionWarning(null, 3)).toBeNull();
    expect(evictionWarning(false, 0)).toBeNull();
    expect(evictionWarning(false, 1)).toContain('há 1 item que ainda não saiu');
    expect(evictionWarning(false, 2)).toContain('há 2 itens que ainda não saíram');
    expect(storageFullMessage(20_000)).toContain('os 20.000 produtos do catálogo foram apagados');
    expect(storageFullMessage(20_000)).toContain('nada da fila de envio se perdeu');
  });
});

describe('the photo download as the screen says it', () => {
  it('counts the photos in pt-BR with what they take', () => {
    expect(photoProgressLabel(312, 2000, 41 * 1024 * 1024)).toBe('312 de 2.000 fotos, 41 MB');
    expect(photoProgressLabel(0, 1, 0)).toBe('0 de 1 foto, 0 bytes');
  });

  it('says how it ended and what is left', () => {
    const base = { done: 1500, total: 2000, missing: 0, failed: 0 };
    expect(photoPhaseMessage({ ...base, phase: 'idle' })).toBeNull();
    expect(photoPhaseMessage({ ...base, phase: 'cancelled' })).toContain('faltam 500 fotos');
    expect(photoPhaseMessage({ ...base, phase: 'full' })).toContain('limite de espaço para fotos foi atingido');
    expect(photoPhaseMessage({ ...base, phase: 'cellular' })).toContain('Só no Wi-Fi');
    expect(photoPhaseMessage({ ...base, phase: 'done', done: 2000, missing: 3, failed: 1 })).toBe(
      'Fotos prontas para usar sem internet. 3 produtos não têm foto no servidor. 1 foto falhou: toque em “Continuar” para tentar de novo.',
    );
  });
});
