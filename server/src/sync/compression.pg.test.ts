// The pull's pages on the wire (docs/sync.md, "On the wire"): compressed as the client accepts,
// the same documents whatever the encoding.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { SyncPull } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { logInAs } from '../../../test/support/session.ts';
import { COMPRESS_MIN_BYTES } from '../http/compression.ts';

const db = useTestDatabase();

describe('pull pages on the wire', () => {
  let app: ReturnType<typeof testApp>;
  let token: string;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const rep = erp.reps[0];
    if (!rep) throw new Error('no representative in the fixture');
    app = testApp(db.pool);
    token = await logInAs(app, db.pool, {
      login: 'rep@wire.test',
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
    });
  });

  const pull = async (acceptEncoding: string | null, limit = 50) => {
    const res = await app.request(`/api/v1/sync/produtos/pull?limit=${limit}`, {
      headers: {
        authorization: `Bearer ${token}`,
        ...(acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding }),
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    return { encoding: res.headers.get('content-encoding'), bytes: Buffer.from(await res.arrayBuffer()) };
  };

  const decoded = ({ encoding, bytes }: { encoding: string | null; bytes: Buffer }) =>
    encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes;

  it('answers the same page in Brotli, gzip or plain, as the client accepts, Brotli first', async () => {
    const plain = await pull(null);
    expect(plain.encoding).toBeNull();
    const page = JSON.parse(plain.bytes.toString('utf8')) as SyncPull;
    expect(page.documents).toHaveLength(50);
    expect(plain.bytes.length).toBeGreaterThan(COMPRESS_MIN_BYTES);

    const cases: [string, string | null][] = [
      ['gzip, deflate, br, zstd', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['deflate, gzip;q=0.5', 'gzip'],
      ['gzip;q=0', null],
      ['*', null],
      ['identity', null],
      ['', null],
    ];
    for (const [header, expected] of cases) {
      const answer = await pull(header);
      expect(answer.encoding, header).toBe(expected);
      if (expected) expect(answer.bytes.length, header).toBeLessThan(plain.bytes.length / 3);
      expect(decoded(answer).equals(plain.bytes), header).toBe(true);
    }
  });

  it('sends a page smaller than a packet as it is', async () => {
    const one = await pull('br, gzip', 1);
    expect(one.bytes.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(one.encoding).toBeNull();
    expect((JSON.parse(one.bytes.toString('utf8')) as SyncPull).documents).toHaveLength(1);
  });

  it('gives every phone asking for a kept page at once the same compressed bytes', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => pull('br')));
    const first = answers[0]?.bytes as Buffer;
    for (const a of answers) {
      expect(a.encoding).toBe('br');
      expect(a.bytes.equals(first)).toBe(true);
    }
    expect(decoded({ encoding: 'br', bytes: first }).equals((await pull(null)).bytes)).toBe(true);
  });
});
