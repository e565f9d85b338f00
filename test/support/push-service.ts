// A local Web Push service, for tests that must not trust the sender: it accepts pushes the
// way a browser vendor's service does (RFC 8030 + RFC 8292 VAPID + RFC 8291 encryption) and
// refuses what such a service would refuse. Devices are made as a browser makes them (an
// ECDH P-256 key pair and a 16-byte auth secret), and every accepted message is decrypted
// with the device's private key, so a test asserts on what a service worker would read.
//
// It speaks HTTPS with a throw-away self-signed certificate: web-push only sends over https,
// and endpoints must be https URLs anyway. The worker under test gets `agent`, which trusts
// exactly that certificate.
import { createECDH, type ECDH, randomBytes } from 'node:crypto';
import { Agent, createServer, type Server } from 'node:https';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify } from 'jose';
import selfsigned from 'selfsigned';

// http_ece ships no types; this is the one function used.
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer;
};

export interface PushDevice {
  /** What the browser's PushSubscription.toJSON() gives, to send to Campo. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  endpoint: string;
}

export interface ReceivedPush {
  endpoint: string;
  /** The decrypted payload, parsed as JSON. */
  message: unknown;
  ttl: number;
  urgency: string | null;
  topic: string | null;
  /** Claims of the verified VAPID JWT. */
  vapid: { sub: string; aud: string; exp: number };
}

export interface RefusedPush {
  endpoint: string;
  status: number;
  reason: string;
}

export interface LocalPushService {
  /** https://127.0.0.1:<port>: the audience a VAPID JWT must name. */
  origin: string;
  /** An https.Agent that trusts this service's certificate (and nothing else). */
  agent: Agent;
  /** A new device subscribed with the given application server (VAPID public) key. */
  newDevice(applicationServerKey: string): PushDevice;
  /** Forgets the device, as a push service does when the browser unsubscribes: later pushes get 410. */
  unsubscribe(endpoint: string): void;
  /** Answers `status` to the next `times` valid pushes to the endpoint (default: until cleared). */
  failWith(
    endpoint: string,
    status: 404 | 410 | 429 | 500 | 503,
    times?: number,
    headers?: Record<string, string>,
  ): void;
  clearFailures(): void;
  /** Delay before answering each push, to make concurrent senders overlap. */
  setDelay(ms: number): void;
  /** Messages accepted (201), in arrival order. */
  received: ReceivedPush[];
  /** Pushes refused because they broke the protocol (bad VAPID, encoding, TTL, undecryptable). */
  refused: RefusedPush[];
  /** Every request that reached an endpoint, with the status it got. */
  requests: { endpoint: string; status: number }[];
  close(): Promise<void>;
}

interface DeviceState {
  ecdh: ECDH;
  auth: string;
  applicationServerKey: string;
  gone: boolean;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const MAX_JWT_LIFETIME_S = 24 * 60 * 60;
const URGENCIES = new Set(['very-low', 'low', 'normal', 'high']);

async function verifyVapid(
  header: string | undefined,
  expectedKey: string,
  origin: string,
): Promise<ReceivedPush['vapid']> {
  const m = /^vapid\s+t=([^,\s]+)\s*,\s*k=([A-Za-z0-9_-]+)\s*$/i.exec(header ?? '');
  if (!m?.[1] || !m[2]) throw new Refusal(401, `Authorization is not "vapid t=..., k=...": ${header}`);
  const [, token, k] = m;
  // The subscription is bound to the key it was made with; another key is another sender.
  if (k !== expectedKey) throw new Refusal(403, 'k is not the applicationServerKey of the subscription');
  const raw = Buffer.from(k, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Refusal(401, 'k is not an uncompressed P-256 point');
  const key = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33, 65).toString('base64url'),
    },
    'ES256',
  );
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key, { algorithms: ['ES256'], audience: origin }));
  } catch (err) {
    throw new Refusal(403, `VAPID JWT refused: ${(err as Error).message}`);
  }
  const now = Math.floor(Date.now() / 1000);
  const { exp, sub, aud } = payload;
  if (typeof exp !== 'number' || exp <= now) throw new Refusal(403, 'VAPID JWT has no exp in the future');
  if (exp > now + MAX_JWT_LIFETIME_S) throw new Refusal(403, 'VAPID JWT exp is more than 24 h ahead');
  if (typeof sub !== 'string' || !/^(mailto:|https:)/.test(sub)) throw new Refusal(403, 'VAPID JWT has no sub');
  return { sub, aud: String(aud), exp };
}

export async function startLocalPushService(): Promise<LocalPushService> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 24 * 60 * 60 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const devices = new Map<string, DeviceState>();
  const failures = new Map<string, { status: number; times: number; headers: Record<string, string> }>();
  const received: ReceivedPush[] = [];
  const refused: RefusedPush[] = [];
  const requests: { endpoint: string; status: number }[] = [];
  let delay = 0;
  let origin = '';

  async function accept(path: string, headers: Record<string, string | string[] | undefined>, body: Buffer) {
    const endpoint = `${origin}${path}`;
    const device = devices.get(path);
    if (!device || device.gone) return { status: device ? 410 : 404, endpoint };
    const vapid = await verifyVapid(headers.authorization as string | undefined, device.applicationServerKey, origin);
    const ttlHeader = headers.ttl as string | undefined;
    if (!ttlHeader || !/^\d+$/.test(ttlHeader)) throw new Refusal(400, 'TTL header missing or not a number');
    if (headers['content-encoding'] !== 'aes128gcm') throw new Refusal(415, 'Content-Encoding must be aes128gcm');
    const urgency = (headers.urgency as string | undefined) ?? null;
    if (urgency !== null && !URGENCIES.has(urgency)) throw new Refusal(400, `bad Urgency ${urgency}`);
    const topic = (headers.topic as string | undefined) ?? null;
    if (topic !== null && !/^[A-Za-z0-9_-]{1,32}$/.test(topic)) throw new Refusal(400, `bad Topic ${topic}`);
    if (body.length > 4096) throw new Refusal(413, 'payload larger than 4096 bytes');
    let plain: Buffer;
    try {
      plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: device.ecdh, authSecret: device.auth });
    } catch (err) {
      throw new Refusal(400, `cannot decrypt: ${(err as Error).message}`);
    }
    const failure = failures.get(path);
    if (failure && failure.times > 0) {
      failure.times--;
      return { status: failure.status, endpoint, headers: failure.headers };
    }
    let message: unknown;
    try {
      message = JSON.parse(plain.toString('utf8'));
    } catch {
      message = plain.toString('utf8');
    }
    received.push({ endpoint, message, ttl: Number(ttlHeader), urgency, topic, vapid });
    return { status: 201, endpoint };
  }

  const server: Server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const answer = async () => {
        if (delay > 0) await new Promise((r) => setTimeout(r, delay));
        if (req.method !== 'POST') return { status: 405, endpoint: `${origin}${path}` };
        return accept(path, req.headers, Buffer.concat(chunks));
      };
      answer().then(
        (r) => {
          requests.push({ endpoint: r.endpoint, status: r.status });
          res.writeHead(r.status, { ...('headers' in r ? r.headers : {}) });
          res.end();
        },
        (err: unknown) => {
          const status = err instanceof Refusal ? err.status : 500;
          const reason = err instanceof Error ? err.message : String(err);
          refused.push({ endpoint: `${origin}${path}`, status, reason });
          requests.push({ endpoint: `${origin}${path}`, status });
          res.writeHead(status, { 'content-type': 'text/plain' });
          res.end(reason);
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ ca: pems.cert, keepAlive: true });

  return {
    origin,
    agent,
    newDevice(applicationServerKey) {
      // As a browser does on pushManager.subscribe(): a fresh P-256 key pair and auth secret.
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16).toString('base64url');
      const path = `/push/${randomBytes(16).toString('base64url')}`;
      devices.set(path, { ecdh, auth, applicationServerKey, gone: false });
      const endpoint = `${origin}${path}`;
      return {
        endpoint,
        subscription: {
          endpoint,
          expirationTime: null,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
        },
      };
    },
    unsubscribe(endpoint) {
      const device = devices.get(new URL(endpoint).pathname);
      if (device) device.gone = true;
    },
    failWith(endpoint, status, times = Number.POSITIVE_INFINITY, headers = {}) {
      failures.set(new URL(endpoint).pathname, { status, times, headers });
    },
    clearFailures() {
      failures.clear();
    },
    setDelay(ms) {
      delay = ms;
    },
    received,
    refused,
    requests,
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
