import { describe, expect, it } from 'vitest';
import { keyBytes } from './key.ts';

describe('keyBytes', () => {
  it('decodes unpadded base64url, as the server sends the VAPID key', () => {
    // 0xfb 0xff 0xbf: "+/+/" in base64, "-_-_" in base64url.
    expect([...keyBytes('-_-_')]).toEqual([0xfb, 0xff, 0xbf]);
    expect([...keyBytes('AQID')]).toEqual([1, 2, 3]);
    expect([...keyBytes('AQ')]).toEqual([1]);
  });

  it('gives the 65 bytes of an uncompressed P-256 point for an 87-character key', () => {
    const key = `B${'A'.repeat(86)}`;
    expect(keyBytes(key).length).toBe(65);
    expect(keyBytes(key)[0]).toBe(4);
  });
});
