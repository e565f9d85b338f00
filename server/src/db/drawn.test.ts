import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { drawnNumber, splicedText } from './drawn.ts';

describe('drawn numbers', () => {
  it('refuses a text that does not hold the placeholder exactly once', () => {
    const drawn = drawnNumber(sql<number>`1`);
    const at = String(drawn.placeholder);
    expect(String(drawn.placeholder)).toMatch(/^\d{15}$/);
    expect(() => splicedText('{"numPedSar":1}', drawn)).toThrow(/nowhere/);
    expect(() => splicedText(`{"a":${at},"b":${at}}`, drawn)).toThrow(/more than once/);
    expect(() => splicedText(`{"numPedSar":${at}}`, drawn)).not.toThrow();
  });
});
