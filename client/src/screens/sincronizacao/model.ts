// What the sync screen says, worked out from the store's documents and the sync's health
// without drawing anything: each item waiting to leave the device by name, with its age, tries
// and last error; byte counts and times in pt-BR; and when to warn about storage.

import type { SyncCollection, SyncWritableCollection } from '@campo/shared';
import { plural } from '@campo/shared/format';
import type { DownloadPhase } from '../../data/photos.ts';
import type { OutboxEntry } from '../../db/outbox.ts';
import type { OpportunityDoc, RegistrationDoc, TicketDoc, VisitDoc } from '../../db/schemas.ts';
import { itemKey, type SyncHealth } from '../../db/sync-health.ts';

export type WaitingState = 'sending' | 'waiting' | 'refused';

export interface WaitingItem {
  key: string;
  collection: SyncWritableCollection;
  id: string;
  /** "Pedido para Mercado Boa Vista", "Oportunidade Padaria Central"... */
  label: string;
  /** Since when it waits (ISO 8601); null when the device does not know. */
  since: string | null;
  tries: number;
  /** The last push's error, or the server's refusal, in pt-BR. */
  lastError: string | null;
  state: WaitingState;
  href: string;
}

export interface WaitingSources {
  orders: readonly OutboxEntry[];
  /** Client names by id (the portfolio on the device). */
  clientName: (idCliente: number) => string | null;
  funil: readonly OpportunityDoc[];
  chamados: readonly TicketDoc[];
  cadastros: readonly RegistrationDoc[];
  /** Visits on the phone (store version 7); absent in a store without them. */
  visitas?: readonly VisitDoc[];
  unsent: Partial<Record<SyncWritableCollection, ReadonlySet<string>>>;
  inFlight: ReadonlySet<string>;
  health: SyncHealth;
}

/** Everything still on the device that the server has not taken, oldest first. */
export function waitingItems(s: WaitingSources): WaitingItem[] {
  const items: WaitingItem[] = [];
  const push = (
    collection: SyncWritableCollection,
    id: string,
    label: string,
    since: string | null,
    href: string,
    refusal?: string | null,
  ) => {
    const h = s.health.items[itemKey(collection, id)];
    items.push({
      key: itemKey(collection, id),
      collection,
      id,
      label,
      since: since ?? h?.firstAttemptAt ?? null,
      tries: h?.tries ?? 0,
      lastError: refusal ?? h?.lastError?.message ?? null,
      state: refusal ? 'refused' : s.inFlight.has(id) ? 'sending' : 'waiting',
      href,
    });
  };
  for (const e of s.orders) {
    if (e.state === 'accepted') continue;
    const idCliente = e.draft?.idCliente;
    const name = (idCliente !== undefined ? s.clientName(idCliente) : null) ?? e.order?.nomeCliente ?? null;
    const label = `Pedido para ${name ?? (idCliente !== undefined ? `o cliente ${idCliente}` : 'um cliente')}`;
    const refusal =
      e.state === 'refused' ? e.reasons.map((r) => r.message).join(' ') || 'Recusado pelo servidor.' : null;
    push('pedidos', e.id, label, e.queuedAt, `/pedidos/${encodeURIComponent(e.id)}`, refusal);
  }
  const unsentFunil = s.unsent.funil ?? new Set<string>();
  for (const d of s.funil) {
    const refusal = d.recusa?.message ?? null;
    if (!refusal && !unsentFunil.has(d.id)) continue;
    const name = d.nomeCliente ?? d.nomeProspect ?? d.empresaProspect ?? 'sem nome';
    push('funil', d.id, `Oportunidade ${name}`, null, `/funil/${encodeURIComponent(d.id)}`, refusal);
  }
  const unsentChamados = s.unsent.chamados ?? new Set<string>();
  for (const d of s.chamados) {
    const refusal = d.recusa?.message ?? d.mensagens.find((m) => m.recusa)?.recusa?.message ?? null;
    if (!refusal && !unsentChamados.has(d.id)) continue;
    push('chamados', d.id, `Chamado “${d.assunto}”`, null, `/sac/${encodeURIComponent(d.id)}`, refusal);
  }
  const unsentCadastros = s.unsent.cadastros ?? new Set<string>();
  for (const d of s.cadastros) {
    const refused = d.status === 'refused';
    if (!refused && d.status !== 'queued' && !unsentCadastros.has(d.id)) continue;
    const refusal = refused ? d.reasons.map((r) => r.message).join(' ') || 'Recusado pelo servidor.' : null;
    const name = d.razaoSocial ?? d.documento ?? 'sem nome';
    push('cadastros', d.id, `Cliente novo ${name}`, null, '/clientes', refusal);
  }
  const unsentVisitas = s.unsent.visitas ?? new Set<string>();
  for (const d of s.visitas ?? []) {
    const refusal = d.recusa?.message ?? null;
    if (!refusal && !unsentVisitas.has(d.id)) continue;
    const name = s.clientName(d.idCliente) ?? d.nomeCliente ?? `cliente ${d.idCliente}`;
    push('visitas', d.id, `Visita a ${name}`, d.entradaEm, `/clientes/${d.idCliente}`, refusal);
  }
  return items.sort((a, b) => (a.since ?? '9').localeCompare(b.since ?? '9'));
}

/**
 * When the device last held the server's state of everything: the oldest of the collections'
 * last complete pulls; null while one has never completed.
 */
export function completeSyncAt(collections: readonly SyncCollection[], health: SyncHealth): string | null {
  let oldest: string | null = null;
  for (const c of collections) {
    const at = health.pulls[c];
    if (!at) return null;
    if (!oldest || at < oldest) oldest = at;
  }
  return oldest;
}

const relative = new Intl.RelativeTimeFormat('pt-BR', { numeric: 'always' });

/** "há 3 dias", "há 5 minutos", "agora há pouco". */
export function ageLabel(iso: string, now = new Date()): string {
  const seconds = Math.max(0, (now.getTime() - Date.parse(iso)) / 1000);
  if (seconds < 60) return 'agora há pouco';
  if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return relative.format(-Math.floor(seconds / 3600), 'hour');
  return relative.format(-Math.floor(seconds / 86_400), 'day');
}

export function triesLabel(tries: number): string {
  if (tries === 0) return 'nenhuma tentativa ainda';
  return plural(tries, 'tentativa', 'tentativas');
}

/**
 * The line under an item: how long it has waited and how many times it was tried; for one
 * the server refused, that it went and came back refused (the server's answer counts as its
 * try, so "nenhuma tentativa ainda" is never said of it).
 */
export function itemProgressLabel(i: Pick<WaitingItem, 'since' | 'tries' | 'state'>, now = new Date()): string {
  if (i.state === 'refused') {
    const sent = i.tries > 1 ? `enviado ${plural(i.tries, 'vez', 'vezes')}` : 'enviado';
    return `${i.since ? `Feito ${ageLabel(i.since, now)} · ` : ''}${sent} e recusado pelo servidor`;
  }
  return `${i.since ? `Na fila ${ageLabel(i.since, now)}` : 'Na fila'} · ${triesLabel(i.tries)}`;
}

/** "2 itens aguardando envio e 1 item recusado pelo servidor." */
export function waitingSummary(waiting: number, refused: number): string {
  const parts = [
    waiting > 0 && plural(waiting, 'item aguardando envio', 'itens aguardando envio'),
    refused > 0 && plural(refused, 'item recusado pelo servidor', 'itens recusados pelo servidor'),
  ].filter((p): p is string => typeof p === 'string');
  return `${parts.join(' e ')}.`;
}

const oneDecimal = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });

/** "12 MB", "1,5 GB", "300 KB": binary units, as phones report their storage. */
export function bytesLabel(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return `${(n < 10 && u > 0 ? oneDecimal : whole).format(n)} ${units[u]}`;
}

const time = new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', minute: '2-digit' });
const dayMonth = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit' });

/** "hoje às 10:42", "21/11 às 10:42"; "ainda não" when it never happened. */
export function whenLabel(iso: string | null | undefined, now = new Date()): string {
  if (!iso) return 'ainda não';
  const at = new Date(iso);
  if (at.toDateString() === now.toDateString()) return `hoje às ${time.format(at)}`;
  return `${dayMonth.format(at)} às ${time.format(at)}`;
}

export const COLLECTION_LABEL: Record<SyncCollection, string> = {
  produtos: 'Catálogo de produtos',
  clientes: 'Clientes da carteira',
  regras: 'Regras de desconto',
  ajustes: 'Tetos e dados da empresa',
  pedidos: 'Pedidos',
  funil: 'Funil',
  chamados: 'Chamados (SAC)',
  cadastros: 'Clientes novos',
  visitas: 'Visitas',
};

/**
 * The warning the screen gives when the browser may evict the store while it holds work that
 * exists nowhere else; null when there is no such risk (or it is not known).
 */
export function evictionWarning(persisted: boolean | null, waiting: number): string | null {
  if (persisted !== false || waiting === 0) return null;
  const what = plural(waiting, 'item que ainda não saiu', 'itens que ainda não saíram');
  return `Atenção: o navegador não garantiu guardar os dados deste aparelho, e há ${what} dele. Se faltar espaço, ou se o app ficar dias sem ser aberto, o navegador pode apagá-los. Conecte-se e toque em “Sincronizar agora” assim que puder; instalar o app na tela inicial ajuda o navegador a guardá-los.`;
}

/** What the representative reads when a full disk made the catalog give way. */
export function storageFullMessage(dropped: number): string {
  const what =
    dropped > 0
      ? `${dropped === 1 ? 'o' : 'os'} ${plural(dropped, 'produto do catálogo foi apagado', 'produtos do catálogo foram apagados')}`
      : 'o catálogo foi apagado';
  return `O aparelho ficou sem espaço. Para guardar seus pedidos, ${what} deste aparelho; nada da fila de envio se perdeu. Libere espaço (apague fotos, vídeos ou apps que não usa) e toque em “Sincronizar agora” para baixar o catálogo de novo.`;
}

/** "312 de 2.000 fotos, 41 MB": how far the photo download is, and what the photos take. */
export function photoProgressLabel(done: number, total: number, bytes: number): string {
  return `${whole.format(done)} de ${plural(total, 'foto', 'fotos')}, ${bytesLabel(bytes)}`;
}

/** How a photo download ended or stands, in a sentence; null while nothing has run. */
export function photoPhaseMessage(d: {
  phase: DownloadPhase;
  done: number;
  total: number;
  missing: number;
  failed: number;
}): string | null {
  const rest = d.total - d.done;
  const missing = d.missing > 0 ? ` ${plural(d.missing, 'produto não tem', 'produtos não têm')} foto no servidor.` : '';
  const failed =
    d.failed > 0
      ? ` ${plural(d.failed, 'foto falhou', 'fotos falharam')}: toque em “Continuar” para tentar de novo.`
      : '';
  switch (d.phase) {
    case 'idle':
      return null;
    case 'preparing':
      return 'Preparando a lista de fotos…';
    case 'running':
      return 'Baixando fotos…';
    case 'done':
      return `Fotos prontas para usar sem internet.${missing}${failed}`;
    case 'cancelled':
      return `Download interrompido: faltam ${plural(rest, 'foto', 'fotos')}. Toque em “Continuar” para retomar de onde parou.`;
    case 'full':
      return `O limite de espaço para fotos foi atingido: faltam ${plural(rest, 'foto', 'fotos')}. Aumente o limite abaixo para baixar o resto.`;
    case 'offline':
      return `Sem conexão com o servidor: faltam ${plural(rest, 'foto', 'fotos')}. Toque em “Continuar” quando houver sinal.`;
    case 'cellular':
      return `Pausado: a conexão agora é de dados móveis e a opção “Só no Wi-Fi” está marcada. Faltam ${plural(rest, 'foto', 'fotos')}.`;
    case 'failed':
      return 'Este navegador não deixou guardar as fotos neste aparelho.';
  }
}
