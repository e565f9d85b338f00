// Words and number formats of the orders screens, in one place so the list, the detail, the
// print view and the PDF say the same thing.

import type { Company, SyncOrderState } from '@campo/shared';
import { formatBrl, formatCep, formatDateTime, formatPercent } from '@campo/shared/format';
import type { OutboxState } from '../db/outbox.ts';

const quantity = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 3 });

export const formatMoney = (v: number) => formatBrl(v);
export { formatPercent };
export const formatQuantity = (v: number) => quantity.format(v);
export { formatDateTime };

/** "há 5 min", "há 2 h", "há 3 dias": the outbox's age of an order. */
export function formatAge(iso: string, now: Date = new Date()): string {
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return '';
  const minutes = Math.max(0, Math.floor((now.getTime() - then) / 60_000));
  if (minutes < 1) return 'agora';
  if (minutes < 60) return `há ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `há ${hours} h`;
  const days = Math.floor(hours / 24);
  return days === 1 ? 'há 1 dia' : `há ${days} dias`;
}

/**
 * An order's label in the list: while the device holds it, the outbox state says where it is
 * ("Na fila" until a push carries it, "Enviando" meanwhile); once the server holds it, its status.
 */
export const STATUS_LABEL: Record<SyncOrderState | 'sent', string> = {
  queued: 'Na fila',
  sent: 'Enviando',
  pending_approval: 'Aguardando aprovação',
  approved: 'Aprovado',
  invoiced: 'Faturado',
  rejected: 'Rejeitado',
  cancelled: 'Cancelado no ERP',
  refused: 'Recusado',
};

export const OUTBOX_LABEL: Record<OutboxState, string> = {
  queued: 'Na fila',
  sent: 'Enviando',
  accepted: 'Recebido',
  refused: 'Recusado',
};

/** The label of an order from its outbox state and status. */
export function labelOf(entry: { state: OutboxState; status: SyncOrderState }): string {
  return entry.state === 'sent' ? STATUS_LABEL.sent : STATUS_LABEL[entry.status];
}

/** Parses what a person typed as a number: "1.234,5" and "1234.5" both read as 1234.5. */
export function parseDecimal(text: string): number | null {
  const t = text.trim().replace(/\s/g, '');
  if (t === '') return null;
  // With a comma, it is the decimal separator and dots group thousands (pt-BR).
  const normal = t.includes(',') ? t.replace(/\./g, '').replace(',', '.') : t;
  if (!/^-?\d+(\.\d+)?$/.test(normal)) return Number.NaN;
  return Number(normal);
}

/** A number written the pt-BR way for an input field (no grouping). */
export const toInputText = (v: number) => String(v).replace('.', ',');

/** A CNPJ or CPF with its mask, when it has the right number of digits. */
export function formatDocument(doc: string | null | undefined): string {
  const d = (doc ?? '').replace(/\D/g, '');
  if (d.length === 14) return d.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
  if (d.length === 11) return d.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
  return doc ?? '';
}

/** The company's address on one line, for the letterhead of printed orders and PDFs. */
export function companyAddress(c: Company): string {
  const a = c.address;
  const cityUf = [a.city, a.uf].filter(Boolean).join('/');
  const cep = a.cep ? `CEP ${formatCep(a.cep)}` : null;
  return [a.street, cityUf, cep].filter(Boolean).join(' · ');
}
