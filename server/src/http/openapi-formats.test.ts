import { describe, expect, it } from 'vitest';
import { withIntegerFormats } from './openapi.ts';

describe('withIntegerFormats', () => {
  it('names int32 or int64 from the enforced bounds, and nothing for an unbounded integer', () => {
    const doc = {
      a: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
      b: { type: 'integer', exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      c: { type: ['integer', 'null'], minimum: -(2 ** 31), maximum: 0 },
      d: { type: 'integer', minimum: 0 },
      e: { type: 'integer', minimum: 0, maximum: 5, format: 'int64' },
      f: { properties: { type: { type: 'integer', minimum: 0, maximum: 1 } } },
    };
    const out = withIntegerFormats(doc);
    expect(
      [out.a, out.b, out.c, out.d, out.e, out.f.properties.type].map((s) => (s as { format?: string }).format),
    ).toEqual(['int32', 'int64', 'int32', undefined, 'int64', 'int32']);
  });
});
