// The product photos' byte budget on the device (docs/pwa.md, "Product photos"): what the
// photo cache holds, in least-recently-used order, and which photos give way when a new one
// needs room. Pure bookkeeping, no browser API, so the rules are unit-tested; photos.ts keeps
// the bytes themselves in a Cache Storage cache of their own and follows what this decides.

/** One photo the cache holds: its key (the image URL) and its size in bytes. */
export type PhotoIndexEntry = [key: string, bytes: number];

export class PhotoBudget {
  // A Map iterates in insertion order: deleting and setting again on each use keeps the least
  // recently used photo first, in O(1), with no clock to trust.
  private readonly entries = new Map<string, number>();
  private total = 0;

  constructor(
    /** The most bytes the photos may take. */
    public limit: number,
  ) {}

  get bytes(): number {
    return this.total;
  }

  get count(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The photo was shown: it becomes the most recently used. */
  touch(key: string): void {
    const bytes = this.entries.get(key);
    if (bytes === undefined) return;
    this.entries.delete(key);
    this.entries.set(key, bytes);
  }

  /** A photo stored (or stored again with a new size): the most recently used. */
  set(key: string, bytes: number): void {
    this.delete(key);
    this.entries.set(key, bytes);
    this.total += bytes;
  }

  delete(key: string): void {
    const bytes = this.entries.get(key);
    if (bytes === undefined) return;
    this.entries.delete(key);
    this.total -= bytes;
  }

  /**
   * The photos to evict, least recently used first, so that `incoming` more bytes (replacing
   * `key`'s, when it is already held) fit the limit; [] when they fit as is. Null when they
   * cannot fit without evicting a photo `keep` protects (a download in progress protects what
   * it fetched, so it never evicts its own work), or when the photo alone exceeds the limit.
   */
  roomFor(incoming: number, key?: string, keep: (key: string) => boolean = () => false): string[] | null {
    if (incoming > this.limit) return null;
    let total = this.total - (key !== undefined ? (this.entries.get(key) ?? 0) : 0);
    const evict: string[] = [];
    for (const [k, bytes] of this.entries) {
      if (total + incoming <= this.limit) break;
      if (k === key || keep(k)) continue;
      evict.push(k);
      total -= bytes;
    }
    return total + incoming <= this.limit ? evict : null;
  }

  /** The photos to evict, least recently used first, to come back under a lowered limit. */
  overflow(): string[] {
    return this.roomFor(0) ?? [];
  }

  /** The oldest photos holding at least `fraction` of the bytes (room after a full disk). */
  oldest(fraction: number): string[] {
    const target = this.total * fraction;
    const out: string[] = [];
    let freed = 0;
    for (const [k, bytes] of this.entries) {
      if (freed >= target && out.length > 0) break;
      out.push(k);
      freed += bytes;
    }
    return out;
  }

  /** The index as kept with the photos: least recently used first. */
  toIndex(): PhotoIndexEntry[] {
    return [...this.entries];
  }

  /** A budget from a kept index; entries that are not [string, size] are dropped. */
  static fromIndex(limit: number, index: unknown): PhotoBudget {
    const budget = new PhotoBudget(limit);
    if (!Array.isArray(index)) return budget;
    for (const e of index) {
      if (Array.isArray(e) && typeof e[0] === 'string' && Number.isFinite(e[1]) && e[1] >= 0) budget.set(e[0], e[1]);
    }
    return budget;
  }
}

/** What the browser says of the connection, for "Só no Wi-Fi". */
export type ConnectionKind = 'wifi' | 'cellular' | 'unknown';

/**
 * navigator.connection.type, where the browser has it (Chrome on Android and ChromeOS); desktop
 * browsers, Safari and Firefox do not say, and then nobody can tell Wi-Fi from a phone's data.
 */
export function connectionKind(connection: { type?: unknown } | undefined | null): ConnectionKind {
  const type = connection?.type;
  if (type === 'wifi' || type === 'ethernet') return 'wifi';
  if (type === 'cellular' || type === 'wimax' || type === 'bluetooth') return 'cellular';
  return 'unknown';
}
