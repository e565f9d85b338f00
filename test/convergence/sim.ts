// Helpers of the offline-convergence simulation (test/convergence.pg.test.ts): the seeded PRNG
// that chooses every operation, the run's counters, and reading a representative's documents
// straight from the server's pull, the reference the devices must converge to.
import { isDeepStrictEqual } from 'node:util';
import type { SyncPull } from '@campo/shared';

/** mulberry32: small, seedable, and the same sequence on every platform. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[int(0, items.length - 1)] as T;
  };
  const chance = (p: number) => next() < p;
  /** A key of `weights`, with probability proportional to its weight. */
  const weighted = <K extends string>(weights: Record<K, number>): K => {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = next() * total;
    for (const [k, w] of entries) {
      r -= w;
      if (r < 0) return k;
    }
    return (entries[entries.length - 1] as [K, number])[0];
  };
  /** `count` distinct items, in random order. */
  const sample = <T>(items: readonly T[], count: number): T[] => {
    const left = [...items];
    const out: T[] = [];
    while (out.length < count && left.length) out.push(left.splice(int(0, left.length - 1), 1)[0] as T);
    return out;
  };
  return { next, int, pick, chance, weighted, sample };
}
export type Prng = ReturnType<typeof prng>;

/** The seed of this run: CONVERGENCE_SEED, or a fresh one (printed, so a failure can be replayed). */
export function seedFromEnv(): number {
  const raw = process.env.CONVERGENCE_SEED;
  if (raw === undefined || raw === '') return Math.floor(Math.random() * 2 ** 31);
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`CONVERGENCE_SEED must be an integer, got ${raw}`);
  return seed;
}

export function intFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
  return n;
}

export type Doc = Record<string, unknown> & { id: string };

/**
 * Every live document of a collection as the server answers the representative's pull now,
 * from the beginning: exactly what a fresh device of theirs would hold.
 */
export async function serverDocs(baseUrl: string, token: string, collection: string): Promise<Map<string, Doc>> {
  const docs = new Map<string, Doc>();
  let checkpoint: string | undefined;
  const limit = 1000;
  for (;;) {
    const query = new URLSearchParams({ limit: String(limit) });
    if (checkpoint) query.set('checkpoint', checkpoint);
    const res = await fetch(`${baseUrl}/api/v1/sync/${collection}/pull?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok) throw new Error(`pull ${collection} answered ${res.status}: ${await res.text()}`);
    const page = (await res.json()) as SyncPull;
    for (const d of page.documents as Doc[]) {
      if (d._deleted) docs.delete(d.id);
      else docs.set(d.id, comparable(d));
    }
    if (page.documents.length < limit) return docs;
    checkpoint = page.checkpoint;
  }
}

/** A document without RxDB's and the wire's bookkeeping (`_deleted`, `_meta`, `_rev`, …). */
export function comparable(doc: Record<string, unknown>): Doc {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) if (!k.startsWith('_')) out[k] = v;
  return JSON.parse(JSON.stringify(out)) as Doc;
}

/** What differs between two sets of documents, in a line short enough for a failure message. */
export function diffDocs(label: string, mine: Map<string, Doc>, reference: Map<string, Doc>): string | null {
  const onlyMine = [...mine.keys()].filter((id) => !reference.has(id));
  const missing = [...reference.keys()].filter((id) => !mine.has(id));
  const changed = [...mine.keys()].filter(
    (id) => reference.has(id) && !isDeepStrictEqual(mine.get(id), reference.get(id)),
  );
  if (!onlyMine.length && !missing.length && !changed.length) return null;
  const first = changed[0];
  const detail =
    first === undefined
      ? ''
      : `; first differing ${first}: device ${JSON.stringify(mine.get(first)).slice(0, 600)} server ${JSON.stringify(reference.get(first)).slice(0, 600)}`;
  return `${label}: only on device [${onlyMine.join(', ')}], missing [${missing.join(', ')}], different [${changed.join(', ')}]${detail}`;
}

export function withTimeout<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
