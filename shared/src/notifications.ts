// Contracts of /notifications (Web Push subscriptions, the VAPID key, the pending-approval
// badge) and of the push message itself: what the browser's service worker receives,
// decrypted, for each event of the spec (docs/push.md).
import { z } from 'zod';

/** Longest endpoint accepted. Real ones are 150 to 500 characters; the cap keeps junk out of the table. */
export const PUSH_ENDPOINT_MAX = 1024;

/** Unpadded base64url, as PushSubscription.toJSON() gives the keys. */
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Bytes a base64url text decodes to (without padding), or -1 when it is not base64url. */
export function base64UrlByteLength(text: string): number {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return -1;
  return Math.floor((text.length * 3) / 4);
}

const base64Url = (bytes: number, what: string) =>
  z
    .string()
    // base64url of `bytes` bytes, with its padding if the browser kept it.
    .max(Math.ceil(bytes / 3) * 4)
    .transform((s) => s.replace(/=+$/, ''))
    .refine((s) => base64UrlByteLength(s) === bytes, `deve ser base64url de ${bytes} bytes`)
    .describe(what);

export const ZPushEndpoint = z
  .string()
  .trim()
  .max(PUSH_ENDPOINT_MAX)
  .refine((s) => {
    try {
      const url = new URL(s);
      return url.protocol === 'https:' && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'use a URL https do serviço de push, como o navegador a fornece')
  .describe(
    "The push service URL of the device (PushSubscription.endpoint): https, at most 1024 characters; it identifies the device and is a secret only the device, its browser vendor's push service and Campo know",
  );

export const ZPushSubscriptionCreate = z
  .object({
    endpoint: ZPushEndpoint,
    expirationTime: z
      .number()
      .nullable()
      .optional()
      .describe('When the browser says the subscription expires (ms since epoch), or null; informative only'),
    keys: z
      .object({
        p256dh: base64Url(
          65,
          "The device's ECDH public key on P-256, uncompressed (65 bytes), base64url: messages are encrypted to it",
        ),
        auth: base64Url(16, 'The authentication secret of the subscription (16 bytes), base64url'),
      })
      .describe('The keys of the subscription, as PushSubscription.toJSON() gives them'),
  })
  .strict()
  .describe(
    "A device's push subscription: send PushSubscription.toJSON() as is. One record per device: subscribing an endpoint already registered moves it to the caller",
  );
export type PushSubscriptionCreate = z.infer<typeof ZPushSubscriptionCreate>;

export const ZPushSubscriptionSaved = z
  .object({
    endpoint: z.string().describe('The endpoint now registered for the caller'),
    subscribedAt: z.string().describe('When it was (re)registered (ISO 8601)'),
  })
  .describe('The device is registered for the caller');
export type PushSubscriptionSaved = z.infer<typeof ZPushSubscriptionSaved>;

export const ZPushSubscriptionDelete = z
  .object({ endpoint: ZPushEndpoint })
  .strict()
  .describe('The device to stop notifying: only a registration of the caller is removed');
export type PushSubscriptionDelete = z.infer<typeof ZPushSubscriptionDelete>;

export const ZVapidPublicKey = z
  .object({
    publicKey: z
      .string()
      .describe(
        "The server's VAPID public key (P-256, uncompressed, base64url): pass it as applicationServerKey to pushManager.subscribe()",
      ),
  })
  .describe('What a browser needs to subscribe to Campo');
export type VapidPublicKey = z.infer<typeof ZVapidPublicKey>;

export const ZPendingCount = z
  .object({
    count: z
      .number()
      .int()
      .min(0)
      .describe(
        'Orders awaiting approval (pending_approval) the caller may decide: a supervisor, those of the representatives they supervise; a manager or admin, all of the tenant; a representative, always 0',
      ),
  })
  .describe('The pending-approval badge; the app refreshes it every 30 seconds');
export type PendingCount = z.infer<typeof ZPendingCount>;

// The push message ---------------------------------------------------------------------

export const ZPushEvent = z
  .enum(['order.pending_approval', 'order.approved', 'order.rejected', 'ticket.message'])
  .describe(
    "What happened: an order awaits the recipient's approval, the recipient's order was approved or rejected, or a ticket got a message for the recipient",
  );
export type PushEvent = z.infer<typeof ZPushEvent>;

export const PUSH_TITLE_MAX = 120;
export const PUSH_BODY_MAX = 400;

/**
 * The JSON a service worker receives in the push event (event.data.json()). It is small on
 * purpose (push services accept about 4 KB) and says only enough to show the notification;
 * the app loads the order itself from the API when it is opened.
 */
export const ZPushMessage = z
  .object({
    type: ZPushEvent,
    title: z.string().min(1).max(PUSH_TITLE_MAX).describe('Notification title, in pt-BR'),
    body: z.string().max(PUSH_BODY_MAX).describe('Notification text, in pt-BR'),
    url: z
      .string()
      .max(300)
      .regex(/^\/(?!\/)\S*$/, 'um caminho do app, como /pedidos/123')
      .describe('Path inside the app to open when the notification is clicked, e.g. /pedidos/123'),
    tag: z
      .string()
      .min(1)
      .max(64)
      .describe('Notification tag: a newer notification with the same tag replaces the older one on the device'),
    orderId: z.number().int().positive().nullable().describe('The order the message is about, when there is one'),
    createdAt: z.string().describe('When the event happened (ISO 8601)'),
  })
  .describe('A decrypted Web Push message');
export type PushMessage = z.infer<typeof ZPushMessage>;
