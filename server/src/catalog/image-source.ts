// Where a product's photo comes from: whatever the ERP keeps in produtos.imagem, a path under
// the folder the operator configured or an http(s) URL. Both are data of the ERP, not of
// Campo: a row someone typed wrongly, or a compromised ERP, must not make the server read a file
// outside the folder (`../`, an absolute path, a symbolic link out, a device) nor make it a proxy
// into the network it sits in (a loopback, private or link-local address, directly or through a
// redirect or a DNS name). Every refusal is a DomainError (a 404 to the app, which shows its
// placeholder); nothing here answers 5xx.

import { lookup } from 'node:dns/promises';
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { DomainError } from '../errors.ts';

export const imageProblems = {
  none: () => new DomainError('PRODUCT_IMAGE_NOT_FOUND', 'Este produto não tem imagem.'),
  missing: () => new DomainError('PRODUCT_IMAGE_NOT_FOUND', 'A imagem deste produto não foi encontrada.'),
  unavailable: (why: string) =>
    new DomainError('PRODUCT_IMAGE_UNAVAILABLE', `A imagem deste produto não pode ser mostrada: ${why}.`),
};

/** A source found and checked, read only when the resized answer is not kept already. */
export interface ImageSource {
  /** What identifies these bytes: a file's device, inode, size and mtime; a URL and its validators. */
  key: string;
  read(): Promise<Buffer>;
  close(): Promise<void>;
}

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
};

/** True for what names a URL (a scheme), false for a path; a Windows drive (C:\) is a path. */
export function isUrlReference(ref: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(ref) && !/^[a-z]:[\\/]/i.test(ref);
}

/**
 * The file `ref` names under `root` (itself a real path, no link in it), opened: refused when
 * the path is absolute, climbs with `..`, resolves (through links) outside the folder, or is
 * not a regular file, or is larger than `maxBytes`. Backslashes count as separators, as an ERP
 * on Windows writes them.
 */
export async function openFileSource(root: string, ref: string, maxBytes: number): Promise<ImageSource> {
  const path = ref.replaceAll('\\', '/');
  if (path.includes('\0')) throw imageProblems.unavailable('o caminho tem um caractere nulo');
  if (path.startsWith('/') || /^[a-z]:/i.test(path)) {
    throw imageProblems.unavailable('o caminho é absoluto; o ERP deve guardar um caminho dentro da pasta de imagens');
  }
  if (path.split('/').includes('..')) throw imageProblems.unavailable('o caminho sai da pasta de imagens');
  const candidate = resolve(root, path);
  if (!inside(root, candidate)) throw imageProblems.unavailable('o caminho sai da pasta de imagens');
  let real: string;
  try {
    real = await realpath(candidate);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw imageProblems.missing();
    throw imageProblems.unavailable('o arquivo não pode ser lido');
  }
  if (!inside(root, real)) throw imageProblems.unavailable('o arquivo é um atalho para fora da pasta de imagens');
  // O_NONBLOCK: opening a FIFO someone left there must not wait for a writer; fstat refuses it next.
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    throw imageProblems.unavailable('o arquivo não pode ser lido');
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw imageProblems.unavailable('o caminho não é um arquivo comum');
    if (st.size > maxBytes) throw tooLarge(maxBytes);
    return {
      key: `file:${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`,
      read: () => readBounded(handle, maxBytes),
      close: () => handle.close(),
    };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

const tooLarge = (maxBytes: number) =>
  imageProblems.unavailable(`o arquivo passa de ${Math.round(maxBytes / 2 ** 20)} MB`);

/** The whole file, refused when it grew past the bound since it was checked. */
async function readBounded(handle: Awaited<ReturnType<typeof open>>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.alloc(Math.min(1 << 20, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk.subarray(0, bytesRead));
  }
  return Buffer.concat(chunks, total);
}

// Addresses a fetch must never reach: this host, the networks the server sits in, the cloud's
// metadata service (169.254.169.254), and the IPv6 forms that carry an IPv4 address inside
// (NAT64, 6to4, Teredo). An IPv4-mapped address (::ffff:127.0.0.1) needs no rule of its own:
// BlockList checks it against the IPv4 rules (and a rule for ::ffff:0:0/96 would match every
// IPv4 address).
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  INTERNAL.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  INTERNAL.addSubnet(net, prefix, 'ipv6');
}

/** Whether a fetch may connect to this address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface FetchOptions {
  maxBytes: number;
  timeoutMs: number;
  /** Redirects followed at most, each checked like the first address. */
  maxRedirects: number;
  /** Tests only: origins fetched although their address is not public (no setting of the server reaches this). */
  exemptOrigins: ReadonlySet<string>;
  /** Validators of a copy kept from an earlier fetch: the answer may then be "not modified". */
  validators?: Validators;
}

export interface Validators {
  etag?: string;
  lastModified?: string;
}

export type Fetched = { notModified: true } | { notModified: false; body: Buffer; validators: Validators };

/** The one address the request will connect to, after checking every address the name has. */
async function checkedAddress(url: URL, exempt: boolean): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw imageProblems.unavailable(`o endereço ${url.host} não foi encontrado`);
    }
  }
  // Every address the name has, not only the first: a name that also points inside is refused.
  if (!exempt && (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address)))) {
    throw imageProblems.unavailable(`o endereço ${url.host} é interno e não é buscado`);
  }
  const first = addresses[0];
  if (!first) throw imageProblems.unavailable(`o endereço ${url.host} não foi encontrado`);
  return first;
}

function checkedUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw imageProblems.unavailable('o endereço da imagem é inválido');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw imageProblems.unavailable(`endereços ${url.protocol.replace(':', '')} não são buscados, só http e https`);
  }
  if (url.username || url.password) throw imageProblems.unavailable('o endereço da imagem tem usuário e senha');
  return url;
}

/**
 * One GET to the checked address, pinned: the connection goes to the address that was checked,
 * never to a second DNS answer (a name that resolves outside first and inside next).
 */
function get(
  url: URL,
  pinned: { address: string; family: number },
  headers: Record<string, string>,
  signal: AbortSignal,
) {
  const pinnedLookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<IncomingMessage>((resolveResponse, reject) => {
    const req = send(url, { method: 'GET', headers, signal, lookup: pinnedLookup }, resolveResponse);
    req.on('error', reject);
    req.end();
  });
}

async function readBody(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw tooLargeUrl(maxBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      res.destroy();
      throw tooLargeUrl(maxBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, total);
}

const tooLargeUrl = (maxBytes: number) =>
  imageProblems.unavailable(`a imagem no endereço passa de ${Math.round(maxBytes / 2 ** 20)} MB`);

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The image at `text`, fetched within `timeoutMs` in all (every hop, the body included) and
 * `maxBytes`; redirects are followed by hand, each new address checked before connecting.
 */
export async function fetchImage(text: string, options: FetchOptions): Promise<Fetched> {
  let url = checkedUrl(text);
  const signal = AbortSignal.timeout(options.timeoutMs);
  const headers: Record<string, string> = {
    accept: 'image/webp,image/png,image/jpeg,image/*;q=0.8',
    'user-agent': 'Campo (product photos)',
  };
  if (options.validators?.etag) headers['if-none-match'] = options.validators.etag;
  if (options.validators?.lastModified) headers['if-modified-since'] = options.validators.lastModified;
  try {
    for (let hop = 0; ; hop++) {
      const pinned = await withSignal(checkedAddress(url, options.exemptOrigins.has(url.origin)), signal);
      const res = await get(url, pinned, headers, signal);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECTS.has(status) && location) {
        res.destroy();
        if (hop >= options.maxRedirects) throw imageProblems.unavailable('o endereço redireciona vezes demais');
        url = checkedUrl(new URL(location, url).toString());
        continue;
      }
      if (status === 304 && options.validators) {
        res.destroy();
        return { notModified: true };
      }
      if (status === 404 || status === 410) {
        res.destroy();
        throw imageProblems.missing();
      }
      if (status !== 200) {
        res.destroy();
        throw imageProblems.unavailable(`o endereço respondeu ${status}`);
      }
      const body = await readBody(res, options.maxBytes);
      const etag = res.headers.etag;
      const lastModified = res.headers['last-modified'];
      return {
        notModified: false,
        body,
        validators: { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) },
      };
    }
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (signal.aborted) {
      throw imageProblems.unavailable(`o endereço não respondeu em ${Math.round(options.timeoutMs / 100) / 10} s`);
    }
    throw imageProblems.unavailable('o endereço não pôde ser lido');
  }
}

/** `work`, or the signal's abort, whichever comes first (a DNS lookup takes no signal). */
function withSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolveWork, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolveWork(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(err);
      },
    );
  });
}
