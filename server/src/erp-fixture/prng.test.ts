import { describe, expect, it } from 'vitest';
import { Rng } from './prng.ts';

const draw = (rng: Rng, n: number) => Array.from({ length: n }, () => rng.next());

describe('Rng', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    expect(draw(new Rng(42), 20)).toEqual(draw(new Rng(42), 20));
    expect(draw(new Rng(42), 20)).not.toEqual(draw(new Rng(43), 20));
  });

  it('derives independent, repeatable streams per label', () => {
    expect(draw(Rng.derive(1, 'clients', 1), 5)).toEqual(draw(Rng.derive(1, 'clients', 1), 5));
    expect(draw(Rng.derive(1, 'clients', 1), 5)).not.toEqual(draw(Rng.derive(1, 'clients', 2), 5));
    expect(draw(Rng.derive(1, 'clients', 1), 5)).not.toEqual(draw(Rng.derive(2, 'clients', 1), 5));
  });

  it('draws uniform numbers in [0, 1) and integers covering both bounds', () => {
    const rng = new Rng(7);
    const values = draw(rng, 10_000);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
    const ints = new Set(Array.from({ length: 1000 }, () => rng.int(3, 6)));
    expect([...ints].sort()).toEqual([3, 4, 5, 6]);
  });

  it('picks by weight, never a zero-weight choice', () => {
    const rng = new Rng(9);
    const picks = Array.from({ length: 4000 }, () =>
      rng.weighted([
        ['a', 3],
        ['b', 1],
        ['never', 0],
      ] as const),
    );
    expect(picks).not.toContain('never');
    const a = picks.filter((p) => p === 'a').length;
    expect(a / picks.length).toBeGreaterThan(0.7);
    expect(a / picks.length).toBeLessThan(0.8);
  });

  it('shuffles into a permutation and refuses to pick from nothing', () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const shuffled = new Rng(3).shuffle([...items]);
    expect(shuffled).not.toEqual(items);
    expect([...shuffled].sort((x, y) => x - y)).toEqual(items);
    expect(() => new Rng(1).pick([])).toThrow(RangeError);
    expect(new Rng(5).digits(12)).toMatch(/^\d{12}$/);
  });
});
