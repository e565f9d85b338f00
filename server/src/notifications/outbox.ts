// Writing a notification: called by domain code inside ITS transaction, so the message
// exists exactly when the change that causes it commits (an order that rolls back notifies
// nobody). Sending is the worker's job (worker.ts); nothing here touches the network.
import { PUSH_BODY_MAX, PUSH_TITLE_MAX, type PushEvent, type PushMessage, ZPushMessage } from '@campo/shared';
import type { Tx } from '../db/scope.ts';
import {
  insertOutbox,
  loginsWithDevices,
  managerLogins,
  type OutboxInsert,
  type PushUrgency,
  representativeLogins,
  supervisorLoginsOf,
} from './queries.ts';

export type { PushUrgency } from './queries.ts';

/** Who receives a notification. Logins of other tenants or without a device are skipped. */
export type PushRecipients =
  | { logins: readonly string[] }
  /** The supervisors of this representative (cod_vendedor) and the tenant's managers. */
  | { approversOf: number }
  /** This representative's (cod_vendedor) own logins. */
  | { representative: number }
  /** The tenant's active managers (the company side of the tickets). */
  | { managers: true };

export interface PushNotification {
  type: PushEvent;
  title: string;
  body: string;
  /** Path inside the app, e.g. /pedidos/123. */
  url: string;
  /** Replaces an earlier notification with the same tag on the device. */
  tag: string;
  orderId?: number | null;
}

export interface EnqueuePushInput {
  idEmpresa: number;
  to: PushRecipients;
  notification: PushNotification;
  /** RFC 8030 Urgency; default normal. */
  urgency?: PushUrgency;
  /** How long a push service keeps the message for an offline device; default one day. */
  ttlSeconds?: number;
  /** RFC 8030 Topic; default the tag when it fits (32 base64url characters at most). */
  topic?: string | null;
}

export interface EnqueuedPush {
  /** Logins a message was written for: the recipients that have at least one device. */
  logins: string[];
  /** The outbox rows, one per login. */
  ids: number[];
}

export const DEFAULT_PUSH_TTL_SECONDS = 24 * 60 * 60;
const TOPIC = /^[A-Za-z0-9_-]{1,32}$/;

/** The supervisors who approve a representative's orders, and the tenant's managers. */
export async function approverLogins(tx: Tx, idEmpresa: number, codVendedor: number): Promise<string[]> {
  const supervisors = await supervisorLoginsOf(tx, idEmpresa, codVendedor);
  const managers = await managerLogins(tx, idEmpresa);
  return [...new Set([...supervisors, ...managers])];
}

/** The logins of a representative (usually one). */
export function representativeRecipientLogins(tx: Tx, idEmpresa: number, codVendedor: number): Promise<string[]> {
  return representativeLogins(tx, idEmpresa, codVendedor);
}

export async function resolveRecipients(tx: Tx, idEmpresa: number, to: PushRecipients): Promise<string[]> {
  if ('logins' in to) return [...new Set(to.logins.map((l) => l.toLowerCase()))];
  if ('approversOf' in to) return approverLogins(tx, idEmpresa, to.approversOf);
  if ('managers' in to) return managerLogins(tx, idEmpresa);
  return representativeRecipientLogins(tx, idEmpresa, to.representative);
}

/** Cuts by code points, so an emoji is never split into half a surrogate pair. */
function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** The message as the device will receive it; text too long for a notification is shortened, not refused. */
export function pushMessage(n: PushNotification, createdAt: Date): PushMessage {
  // Throws on a malformed url, tag or type: those are programming errors of the caller,
  // caught by its tests, while user-typed text (client names, rejection reasons) only gets cut.
  return ZPushMessage.parse({
    type: n.type,
    title: cut(n.title, PUSH_TITLE_MAX),
    body: cut(n.body, PUSH_BODY_MAX),
    url: n.url,
    tag: n.tag,
    orderId: n.orderId ?? null,
    createdAt: createdAt.toISOString(),
  });
}

/**
 * Writes one outbox row per recipient that has a device, in the caller's transaction (whose
 * tenant must be idEmpresa: row-level security refuses any other). A recipient without any
 * registered device gets no row; with push disabled nobody can register, so nothing piles up.
 */
export async function enqueuePush(tx: Tx, input: EnqueuePushInput): Promise<EnqueuedPush> {
  const candidates = await resolveRecipients(tx, input.idEmpresa, input.to);
  const withDevices = new Set(await loginsWithDevices(tx, input.idEmpresa, candidates));
  return enqueuePushTo(
    tx,
    input,
    candidates.filter((l) => withDevices.has(l)),
  );
}

/** enqueuePush for recipients the caller already resolved to logins with a device (in its own read). */
export async function enqueuePushTo(
  tx: Tx,
  input: Omit<EnqueuePushInput, 'to'>,
  logins: string[],
): Promise<EnqueuedPush> {
  const ids = await insertOutbox(tx, outboxRows(input, logins));
  return { logins, ids };
}

/** The outbox rows of a notification, one per login (enqueuePushTo writes them). */
export function outboxRows(input: Omit<EnqueuePushInput, 'to'>, logins: readonly string[]): OutboxInsert[] {
  const message = pushMessage(input.notification, new Date());
  // UTF-8 bytes in a bytea column: the LATIN1 database could not hold every character as text.
  const payload = Buffer.from(JSON.stringify(message), 'utf8');
  const topic = input.topic !== undefined ? input.topic : TOPIC.test(message.tag) ? message.tag : null;
  if (topic !== null && !TOPIC.test(topic)) throw new Error(`push topic ${topic} is not 1-32 base64url characters`);
  return logins.map((login) => ({
    idEmpresa: input.idEmpresa,
    login,
    payload,
    topic,
    urgency: input.urgency ?? 'normal',
    ttl: input.ttlSeconds ?? DEFAULT_PUSH_TTL_SECONDS,
  }));
}
