// Compression of the pull's pages for the phone's mobile data (docs/sync.md, "On the wire"). A
// representative's first download is 11 MiB of JSON at the medium fixture, more than 10 s at 9
// Mbit/s; Brotli makes it 1.3 MiB. The pages are bytes already (stored JSON, page.ts), so they are
// compressed here whole, off the event loop (zlib runs on libuv's thread pool), and a page the
// process keeps (page-cache.ts) is compressed once for every phone that asks for it: the
// compressed bytes live as long as the page's own. Compression costs this server's CPU, never the
// ERP database's.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'hono';
import { accepts } from 'hono/accepts';

type Encoding = 'br' | 'gzip' | 'identity';

/** Below a packet's size compression saves nothing worth its time (an empty pull is 80 bytes). */
export const COMPRESS_MIN_BYTES = 1400;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

// The fastest levels: most pages are compressed for one phone, so compression's CPU counts as
// much as the bytes. On a page of 2,000 products here, Brotli at quality 1 is 8.0 times smaller
// at about 470 MB/s (quality 4: 8.6 times, at 160 MB/s); gzip, for clients without Brotli
// (Node's fetch), at level 1 as nginx by default: 7.2 times at 300 MB/s (zlib's default level
// 6: 8.9 times, at 95 MB/s).
const compressors: Record<Exclude<Encoding, 'identity'>, (body: Buffer) => Promise<Buffer<ArrayBuffer>>> = {
  br: (body) =>
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 1,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => gzipped(body, { level: 1 }),
};

/** Per body (a kept page is the same Buffer for every request), its compressed forms. */
const done = new WeakMap<Buffer, Partial<Record<Encoding, Promise<Buffer<ArrayBuffer>>>>>();

/**
 * The encoding to answer with: Brotli when the client takes it, else gzip, else none. An
 * encoding given q=0 is refused; `*` is not taken as an offer.
 */
function encodingFor(c: Context): Encoding {
  return accepts(c, {
    header: 'Accept-Encoding',
    supports: ['br', 'gzip'],
    default: 'identity',
    // Among those offered, the server's preference (Brotli) rather than the header's order.
    match: (offered, { supports, default: none }) => {
      const taken = new Set(offered.filter((o) => o.q > 0).map((o) => o.type.toLowerCase()));
      return supports.find((s) => taken.has(s)) ?? none;
    },
  }) as Encoding;
}

/**
 * The body compressed as the client accepts (computed once per body and encoding, however
 * many ask at once), with the headers to send; small bodies go as they are. `Vary` is always
 * set: the same URL answers other bytes to another client.
 */
export async function compressed(
  c: Context,
  body: Buffer<ArrayBuffer>,
): Promise<{ body: Buffer<ArrayBuffer>; headers: Record<string, string> }> {
  const vary = { vary: 'Accept-Encoding' };
  const encoding = body.length < COMPRESS_MIN_BYTES ? 'identity' : encodingFor(c);
  if (encoding === 'identity') return { body, headers: vary };
  let forms = done.get(body);
  if (!forms) {
    forms = {};
    done.set(body, forms);
  }
  let form = forms[encoding];
  if (!form) {
    form = compressors[encoding](body);
    forms[encoding] = form;
    // A failed compression is not kept: the next request tries again.
    form.catch(() => {
      if (forms[encoding] === form) delete forms[encoding];
    });
  }
  return { body: await form, headers: { ...vary, 'content-encoding': encoding } };
}
