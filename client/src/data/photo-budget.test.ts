import { describe, expect, it } from 'vitest';
import { connectionKind, PhotoBudget } from './photo-budget.ts';

const MB = 1024 * 1024;

function filled(limit: number, ...photos: [string, number][]): PhotoBudget {
  const b = new PhotoBudget(limit);
  for (const [k, bytes] of photos) b.set(k, bytes);
  return b;
}

describe('the photos byte budget', () => {
  it('counts the bytes held and replaces a photo stored again', () => {
    const b = filled(10 * MB, ['a', 2 * MB], ['b', 3 * MB]);
    expect(b.bytes).toBe(5 * MB);
    b.set('a', 1 * MB);
    expect(b.bytes).toBe(4 * MB);
    expect(b.count).toBe(2);
    b.delete('b');
    b.delete('nope');
    expect(b.bytes).toBe(1 * MB);
  });

  it('needs no eviction while a photo fits', () => {
    expect(filled(10 * MB, ['a', 4 * MB], ['b', 4 * MB]).roomFor(2 * MB)).toEqual([]);
  });

  it('evicts the least recently used first, and a photo shown becomes the most recent', () => {
    const b = filled(10, ['a', 3], ['b', 3], ['c', 3]);
    expect(b.roomFor(3)).toEqual(['a']);
    b.touch('a');
    expect(b.roomFor(3)).toEqual(['b']);
    expect(b.roomFor(5)).toEqual(['b', 'c']);
    expect(b.toIndex().map(([k]) => k)).toEqual(['b', 'c', 'a']);
  });

  it('evicts only as many as the new photo needs', () => {
    const b = filled(10, ['a', 1], ['b', 1], ['c', 5], ['d', 2]);
    expect(b.roomFor(3)).toEqual(['a', 'b']);
  });

  it('counts a photo stored again without its old bytes, and never evicts it for itself', () => {
    const b = filled(10, ['a', 4], ['b', 4]);
    expect(b.roomFor(6, 'a')).toEqual([]);
    expect(b.roomFor(7, 'a')).toEqual(['b']);
  });

  it('never evicts what a download protects: no room is null', () => {
    const b = filled(10, ['old', 2], ['mine1', 4], ['mine2', 4]);
    const mine = (k: string) => k.startsWith('mine');
    expect(b.roomFor(2, undefined, mine)).toEqual(['old']);
    expect(b.roomFor(3, undefined, mine)).toBeNull();
  });

  it('refuses a photo larger than the whole budget without evicting anything', () => {
    expect(filled(10, ['a', 1]).roomFor(11)).toBeNull();
  });

  it('comes back under a lowered limit by evicting the least recently used', () => {
    const b = filled(10, ['a', 3], ['b', 3], ['c', 3]);
    b.limit = 4;
    expect(b.overflow()).toEqual(['a', 'b']);
  });

  it('names the oldest photos holding a share of the bytes, after a full disk', () => {
    const b = filled(100, ['a', 10], ['b', 10], ['c', 30], ['d', 50]);
    expect(b.oldest(0.15)).toEqual(['a', 'b']);
    expect(new PhotoBudget(1).oldest(0.5)).toEqual([]);
  });

  it('round-trips through its kept index, dropping malformed entries', () => {
    const b = filled(10, ['a', 3], ['b', 4]);
    b.touch('a');
    const back = PhotoBudget.fromIndex(10, JSON.parse(JSON.stringify(b.toIndex())));
    expect(back.toIndex()).toEqual([
      ['b', 4],
      ['a', 3],
    ]);
    expect(back.bytes).toBe(7);
    expect(PhotoBudget.fromIndex(10, [['x', -1], [3, 3], 'y', ['z', 2]]).toIndex()).toEqual([['z', 2]]);
    expect(PhotoBudget.fromIndex(10, { not: 'an index' }).count).toBe(0);
  });
});

describe('the connection type for "Só no Wi-Fi"', () => {
  it('tells Wi-Fi from mobile data only where the browser says', () => {
    expect(connectionKind({ type: 'wifi' })).toBe('wifi');
    expect(connectionKind({ type: 'ethernet' })).toBe('wifi');
    expect(connectionKind({ type: 'cellular' })).toBe('cellular');
    expect(connectionKind({ type: 'unknown' })).toBe('unknown');
    expect(connectionKind({})).toBe('unknown');
    expect(connectionKind(undefined)).toBe('unknown');
  });
});
