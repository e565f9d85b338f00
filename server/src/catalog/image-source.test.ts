// The checks of an image source that no ERP row can reach through PostgreSQL (a NUL byte) and
// the address rules a URL's every hop is held to.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isPublicAddress, isUrlReference, openFileSource } from './image-source.ts';

describe('image sources', () => {
  const made = mkdtemp(join(tmpdir(), 'campo-source-'));
  afterAll(async () => rm(await made, { recursive: true, force: true }));

  it('refuses a NUL in a path before touching the disk', async () => {
    const root = await realpath(await made);
    await expect(openFileSource(root, 'produtos/a\0../../etc/passwd', 1024)).rejects.toMatchObject({
      code: 'PRODUCT_IMAGE_UNAVAILABLE',
    });
  });

  it('tells a URL from a path, a Windows drive being a path', () => {
    expect(isUrlReference('https://cdn.example.com/a.jpg')).toBe(true);
    expect(isUrlReference('file:///etc/passwd')).toBe(true);
    expect(isUrlReference('produtos/BEB00001.jpg')).toBe(false);
    expect(isUrlReference('C:\\imagens\\a.jpg')).toBe(false);
  });

  it('allows public addresses only', () => {
    for (const inner of [
      '127.0.0.1',
      '127.8.9.10',
      '0.0.0.0',
      '10.0.0.1',
      '100.64.1.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      'not-an-address',
    ]) {
      expect(isPublicAddress(inner), inner).toBe(false);
    }
    for (const outer of ['8.8.8.8', '172.32.0.1', '200.160.2.3', '2001:4860:4860::8888', '2804:14c::1']) {
      expect(isPublicAddress(outer), outer).toBe(true);
    }
  });
});
