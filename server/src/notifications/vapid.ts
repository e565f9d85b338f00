// VAPID (RFC 8292): the key pair that identifies Campo to the browsers' push services. A
// browser subscribes with the public key, and every push carries a JWT signed with the
// private key; a push service refuses pushes signed with another key, so a mismatched pair
// would make every notification fail. The checks here run at start-up.
import { createECDH } from 'node:crypto';
import webpush from 'web-push';

export interface VapidKeys {
  /** P-256 public key, uncompressed point, unpadded base64url (87 characters). */
  publicKey: string;
  /** P-256 private scalar, unpadded base64url (43 characters). */
  privateKey: string;
  /** mailto: or https: contact the push services may use to reach the operator. */
  subject: string;
}

/** Push settings of a server; vapid null means push is disabled. */
export interface PushSettings {
  vapid: VapidKeys | null;
  /** Hosts (or parent domains) a subscription endpoint may point to. */
  endpointHosts: readonly string[];
}

/**
 * The browser vendors' push services. A subscription whose endpoint points anywhere else is
 * refused: the worker POSTs to that URL, so accepting any host would let a signed-in user
 * make the server send requests into the client's network.
 */
export const DEFAULT_PUSH_ENDPOINT_HOSTS: readonly string[] = [
  'fcm.googleapis.com', // Chrome, Edge on Android, Opera, Samsung Internet, Brave
  'push.services.mozilla.com', // Firefox
  'notify.windows.com', // Edge on Windows (WNS)
  'push.apple.com', // Safari, and every browser on iOS
];

export function endpointHostAllowed(endpoint: string, hosts: readonly string[]): boolean {
  let host: string;
  try {
    host = new URL(endpoint).hostname.toLowerCase();
  } catch {
    return false;
  }
  return hosts.some((h) => host === h || host.endsWith(`.${h}`));
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Why the pair is unusable, in one line naming the variable, or null when it is a valid matching pair. */
export function vapidKeyProblem(publicKey: string, privateKey: string): string | null {
  if (!BASE64URL.test(publicKey) || Buffer.from(publicKey, 'base64url').length !== 65) {
    return 'VAPID_PUBLIC_KEY must be a P-256 public key: 65 bytes, unpadded base64url (campo vapid generate)';
  }
  if (!BASE64URL.test(privateKey) || Buffer.from(privateKey, 'base64url').length !== 32) {
    return 'VAPID_PRIVATE_KEY must be a P-256 private key: 32 bytes, unpadded base64url (campo vapid generate)';
  }
  const ecdh = createECDH('prime256v1');
  try {
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  } catch {
    return 'VAPID_PRIVATE_KEY is not a valid P-256 private key';
  }
  if (!ecdh.getPublicKey().equals(Buffer.from(publicKey, 'base64url'))) {
    return 'VAPID_PUBLIC_KEY does not belong to VAPID_PRIVATE_KEY: set both from the same `campo vapid generate`';
  }
  return null;
}

/** A VAPID subject push services accept: a mailto: address or an https: URL. */
export function vapidSubjectProblem(subject: string): string | null {
  if (/^mailto:[^@\s]+@[^@\s]+$/.test(subject)) return null;
  try {
    if (new URL(subject).protocol === 'https:') return null;
  } catch {
    // falls through to the message
  }
  return 'VAPID_SUBJECT must be mailto:someone@company.com.br or an https:// URL of the operator';
}

export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}
