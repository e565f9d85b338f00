import { LOGO_MAX_BYTES, LOGO_MAX_DIMENSION } from '@campo/shared';
import { describe, expect, it } from 'vitest';
import { gif, HTML, jpeg, png, pngBomb, pngClaiming, SVG, webp } from '../../../test/fixtures/images.ts';
import { DomainError } from '../errors.ts';
import { inspectLogo, toDataUrl } from './logo.ts';

async function refusal(bytes: Uint8Array): Promise<{ status: number; code: string }> {
  try {
    await inspectLogo(bytes);
  } catch (err) {
    if (err instanceof DomainError) return { status: err.status, code: err.code };
    throw err;
  }
  throw new Error('the logo was accepted');
}

describe('inspectLogo', () => {
  it('accepts PNG, JPEG and WebP by their bytes, with their dimensions', async () => {
    expect(await inspectLogo(png(16, 8))).toEqual({ mime: 'image/png', width: 16, height: 8 });
    expect(await inspectLogo(jpeg())).toEqual({ mime: 'image/jpeg', width: 1, height: 1 });
    expect(await inspectLogo(webp())).toEqual({ mime: 'image/webp', width: 1, height: 1 });
  });

  it('refuses what is not PNG, JPEG or WebP with 415', async () => {
    for (const bytes of [SVG, HTML, gif(), Buffer.from('just text'), Buffer.alloc(0)]) {
      expect(await refusal(bytes)).toEqual({ status: 415, code: 'LOGO_TYPE_NOT_SUPPORTED' });
    }
  });

  it('takes 500 KB as 512,000 bytes: exactly that passes, one more is 413', async () => {
    expect(LOGO_MAX_BYTES).toBe(512_000);
    expect((await inspectLogo(png(1, 1, LOGO_MAX_BYTES))).mime).toBe('image/png');
    expect(await refusal(png(1, 1, LOGO_MAX_BYTES + 1))).toEqual({ status: 413, code: 'LOGO_TOO_LARGE' });
  });

  it('refuses a PNG cut short, whose IEND chunk is missing', async () => {
    const whole = png(32, 32);
    expect(await refusal(whole.subarray(0, whole.length - 12))).toEqual({ status: 422, code: 'LOGO_TRUNCATED' });
    expect(await refusal(whole.subarray(0, whole.length - 1))).toEqual({ status: 422, code: 'LOGO_TRUNCATED' });
  });

  it('refuses a PNG cut inside its header as unreadable', async () => {
    expect(await refusal(png().subarray(0, 20))).toEqual({ status: 422, code: 'LOGO_UNREADABLE' });
  });

  it('refuses a JPEG without its end marker and a WebP shorter than its RIFF header says', async () => {
    const j = jpeg();
    expect(await refusal(j.subarray(0, j.length - 2))).toEqual({ status: 422, code: 'LOGO_TRUNCATED' });
    const w = webp();
    expect(await refusal(w.subarray(0, w.length - 4))).toEqual({ status: 422, code: 'LOGO_TRUNCATED' });
  });

  it('refuses huge dimensions with 422, at the bound and above', async () => {
    expect(await refusal(pngClaiming(100_000, 100_000))).toEqual({ status: 422, code: 'LOGO_DIMENSIONS_TOO_LARGE' });
    expect(await refusal(pngClaiming(LOGO_MAX_DIMENSION + 1, 1))).toEqual({
      status: 422,
      code: 'LOGO_DIMENSIONS_TOO_LARGE',
    });
    expect(await inspectLogo(pngClaiming(LOGO_MAX_DIMENSION, LOGO_MAX_DIMENSION))).toMatchObject({
      width: LOGO_MAX_DIMENSION,
      height: LOGO_MAX_DIMENSION,
    });
  });

  it('refuses a polyglot: a PNG carrying an HTML page after its end, or a JPEG with a ZIP behind it', async () => {
    const page = Buffer.from('<html><script>alert(document.cookie)</script></html>', 'latin1');
    expect(await refusal(Buffer.concat([png(4, 4), page]))).toEqual({ status: 422, code: 'LOGO_TRAILING_DATA' });
    const zip = Buffer.from('PK\u0003\u0004 payload PK\u0005\u0006', 'latin1');
    expect(await refusal(Buffer.concat([jpeg(), zip]))).toEqual({ status: 422, code: 'LOGO_TRAILING_DATA' });
  });

  it('refuses a decompression bomb by its header alone: the pixels are never decoded', async () => {
    // 64 MB of pixels in a file of a few KB, well under the 500 KB limit.
    const bomb = pngBomb(8000, 8000);
    expect(bomb.length).toBeLessThan(LOGO_MAX_BYTES);
    expect(await refusal(bomb)).toEqual({ status: 422, code: 'LOGO_DIMENSIONS_TOO_LARGE' });
  });

  it('makes a data URL that holds the same bytes', () => {
    const bytes = png(2, 2);
    const url = toDataUrl('image/png', bytes);
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    expect(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64').equals(bytes)).toBe(true);
  });
});
