// Product photos as the phone wants them: resized to the width it shows (a thumbnail for the
// list and the cart, a larger one for the product page) and encoded as WebP, whatever the ERP
// keeps (image-source.ts). A catalog has thousands of products and "Baixar fotos" asks for all
// of them: resized answers are kept in memory, bounded in bytes, least recently used first,
// keyed by the source's identity (a file's device, inode, size and mtime; a URL and the ETag or
// Last-Modified it answered), so a file replaced or a URL that changed is resized again.
import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { PRODUCT_IMAGE_WIDTHS, type ProductImageSize } from '@campo/shared';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { DomainError } from '../errors.ts';
import { log } from '../log.ts';
import {
  type Fetched,
  fetchImage,
  type ImageSource,
  imageProblems,
  isUrlReference,
  openFileSource,
  type Validators,
} from './image-source.ts';

export interface ProductImagesOptions {
  /** The folder relative paths are read under (PRODUCT_IMAGES_DIR); absent: such products have no photo. */
  dir?: string;
  /** Whether http(s) URLs are fetched (PRODUCT_IMAGES_URLS). */
  fetchUrls?: boolean;
  /** Bytes of resized photos kept (PRODUCT_IMAGES_CACHE_MB); default 64 MiB, 0: none. */
  cacheBytes?: number;
  /** Largest source file or download (default 10 MiB). */
  maxSourceBytes?: number;
  /** Time a URL has to answer, redirects and body included (default 5 s). */
  fetchTimeoutMs?: number;
  /** How long a URL's kept photo is served without asking the origin again (default 10 minutes). */
  urlFreshMs?: number;
  /**
   * Tests only: origins (`http://127.0.0.1:4567`) fetched although their address is loopback.
   * No environment variable sets it: `campo serve` never passes it.
   */
  testOnlyExemptOrigins?: readonly string[];
}

export interface ProductImage {
  body: Buffer;
  /** A strong ETag of exactly these bytes. */
  etag: string;
}

export interface ProductImages {
  /** The photo `imagem` names at `size`, or the DomainError that says why there is none. */
  get(imagem: string | null, size: ProductImageSize): Promise<ProductImage>;
}

const MiB = 2 ** 20;
/** A source past this many pixels is refused before it is decoded (a decompression bomb). */
export const MAX_INPUT_PIXELS = 50_000_000;
/** Photos resized at once: each holds its source (up to 10 MiB) and its decoded pixels. */
const RENDERS_AT_ONCE = 2;
/** How long a URL that failed is not asked again: a stalled origin must not hold every request. */
const URL_FAILURE_MS = 60_000;
/** URLs whose validators and failures are remembered (their photos are in the byte cache). */
const URL_STATES_MAX = 20_000;

const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);

// libvips' operation cache (50 MB by default) would keep decoded sources that are never asked
// for again: each photo is decoded once, and its resized answer is kept below.
sharp.cache(false);

/** A byte-bounded least-recently-used map (a Map iterates oldest first; reading re-inserts). */
function byteLru(maxBytes: number) {
  const entries = new Map<string, ProductImage>();
  let bytes = 0;
  return {
    get(key: string): ProductImage | undefined {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
      }
      return hit;
    },
    set(key: string, value: ProductImage): void {
      if (value.body.length > maxBytes) return;
      const old = entries.get(key);
      if (old) bytes -= old.body.length;
      entries.delete(key);
      entries.set(key, value);
      bytes += value.body.length;
      for (const [k, v] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(k);
        bytes -= v.body.length;
      }
    },
  };
}

/** A count-bounded map, oldest entries dropped first. */
function boundedMap<V>(max: number) {
  const entries = new Map<string, V>();
  return {
    get: (key: string) => entries.get(key),
    delete: (key: string) => entries.delete(key),
    set(key: string, value: V) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > max) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
    },
  };
}

/** At most `n` tasks at once; the others wait their turn in order. */
function limiter(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((go) => waiting.push(go));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

const etagOf = (body: Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

/**
 * The source resized into the box `width` × 2·`width` (aspect kept, never enlarged), turned
 * upright as its EXIF says, as WebP. The bytes decide what it is, never a name or a header: an
 * SVG (which can carry script or fetch other files), an HTML page, anything but JPEG, PNG, WebP
 * or GIF is refused before it reaches the decoder.
 */
export async function resizeImage(source: Buffer, width: number): Promise<Buffer> {
  const type = await fileTypeFromBuffer(source);
  if (!type || !ACCEPTED.has(type.mime)) {
    throw imageProblems.unavailable('o arquivo não é uma imagem JPEG, PNG, WebP ou GIF');
  }
  try {
    return await sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
      .rotate()
      .resize({ width, height: width * 2, fit: 'inside', withoutEnlargement: true })
      // effort 2 of 6: about half the encoding time of the default 4 at the full size, for some
      // 6 % more bytes; a catalog's first "Baixar fotos" encodes every photo once.
      .webp({ quality: 78, effort: 2 })
      .toBuffer();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(message)) {
      throw imageProblems.unavailable(
        `a imagem passa de ${(MAX_INPUT_PIXELS / 1e6).toLocaleString('pt-BR')} milhões de pixels`,
      );
    }
    throw imageProblems.unavailable('o arquivo da imagem está corrompido ou incompleto');
  }
}

interface UrlState {
  validators: Validators;
  key: string;
  checkedAt: number;
}

export function createProductImages(options: ProductImagesOptions = {}): ProductImages {
  const maxSourceBytes = options.maxSourceBytes ?? 10 * MiB;
  const fetchTimeoutMs = options.fetchTimeoutMs ?? 5000;
  const urlFreshMs = options.urlFreshMs ?? 10 * 60_000;
  const exemptOrigins = new Set(options.testOnlyExemptOrigins ?? []);
  const cache = byteLru(options.cacheBytes ?? 64 * MiB);
  const inFlight = new Map<string, Promise<ProductImage>>();
  const urls = boundedMap<UrlState>(URL_STATES_MAX);
  const failures = boundedMap<{ error: DomainError; until: number }>(URL_STATES_MAX);
  const rendering = limiter(RENDERS_AT_ONCE);
  let root: Promise<string> | undefined;

  /** The folder as a real path, found once; a folder that is not there answers "unavailable". */
  const rootDir = () => {
    if (!options.dir) return Promise.reject(imageProblems.unavailable('o servidor não tem uma pasta de imagens'));
    root ??= realpath(options.dir).catch((err: unknown) => {
      root = undefined;
      log.warn('the product images folder cannot be read', { dir: options.dir, error: String(err) });
      throw imageProblems.unavailable('a pasta de imagens do servidor não pode ser lida');
    });
    return root;
  };

  /** The kept answer for `key`, or the one being made, or a new one made from `read`. */
  const through = async (key: string, width: number, read: () => Promise<Buffer>): Promise<ProductImage> => {
    const id = `${key}|${width}`;
    const kept = cache.get(id);
    if (kept) return kept;
    let pending = inFlight.get(id);
    if (!pending) {
      pending = rendering(async () => {
        const body = await resizeImage(await read(), width);
        const made = { body, etag: etagOf(body) };
        cache.set(id, made);
        return made;
      }).finally(() => inFlight.delete(id));
      inFlight.set(id, pending);
    }
    return pending;
  };

  const fromFile = async (ref: string, width: number): Promise<ProductImage> => {
    const source: ImageSource = await openFileSource(await rootDir(), ref, maxSourceBytes);
    try {
      return await through(source.key, width, source.read);
    } finally {
      await source.close();
    }
  };

  const fromUrl = async (url: string, width: number): Promise<ProductImage> => {
    if (!options.fetchUrls) {
      throw imageProblems.unavailable('o servidor não busca imagens por endereço (PRODUCT_IMAGES_URLS)');
    }
    const failed = failures.get(url);
    if (failed && failed.until > Date.now()) throw failed.error;
    const state = urls.get(url);
    const kept = state && cache.get(`${state.key}|${width}`);
    if (state && kept && Date.now() - state.checkedAt < urlFreshMs) return kept;
    const remember = (err: unknown) => {
      if (err instanceof DomainError) failures.set(url, { error: err, until: Date.now() + URL_FAILURE_MS });
      return err;
    };
    let fetched: Fetched;
    try {
      fetched = await fetchImage(url, {
        maxBytes: maxSourceBytes,
        timeoutMs: fetchTimeoutMs,
        maxRedirects: 3,
        exemptOrigins,
        // Asked conditionally only when the answer for this width is kept: a 304 then costs nothing.
        ...(state && kept ? { validators: state.validators } : {}),
      });
    } catch (err) {
      throw remember(err);
    }
    failures.delete(url);
    if (fetched.notModified && state && kept) {
      urls.set(url, { ...state, checkedAt: Date.now() });
      return kept;
    }
    if (fetched.notModified) throw imageProblems.unavailable('o endereço não devolveu a imagem');
    const { body, validators } = fetched;
    // Without validators the bytes themselves identify the photo.
    const identity =
      validators.etag ?? validators.lastModified ?? createHash('sha256').update(body).digest('base64url');
    const key = `url:${url}|${identity}`;
    urls.set(url, { validators, key, checkedAt: Date.now() });
    // An answer that is no usable photo (HTML, a broken file) is remembered like a failed fetch.
    return through(key, width, async () => body).catch((err: unknown) => {
      throw remember(err);
    });
  };

  return {
    async get(imagem, size) {
      const ref = imagem?.trim();
      if (!ref) throw imageProblems.none();
      const width = PRODUCT_IMAGE_WIDTHS[size];
      return isUrlReference(ref) ? fromUrl(ref, width) : fromFile(ref, width);
    },
  };
}
