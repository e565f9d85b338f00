// GET /catalog/{id}/image against a real PostgreSQL and the reference ERP's drawn photos: who
// may read a photo, the sizes, the ETag and 304, and every hostile source an ERP row can name
// (paths out of the folder, links, devices, huge or disguised files, a decompression bomb, slow
// or internal URLs, redirects inward). Each is a 404 problem the app answers with its
// placeholder; none is a 5xx and none serves a byte from outside the folder.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, open, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Problem } from '@campo/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { type Api, signedIn } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { fixtureImages } from '../../../test/support/images.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import type { SessionUser } from '../../../test/support/session.ts';
import { FIXTURE_IMAGE_SIDE } from '../erp-fixture/images.ts';
import type { ProductImagesOptions } from './images.ts';

const db = useTestDatabase();

/** A local origin that serves what each test puts at a path, and counts what it was asked. */
function origin() {
  const routes = new Map<string, (res: ServerResponse, req: IncomingMessage) => void>();
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const route = routes.get(req.url ?? '');
    if (route) route(res, req);
    else res.writeHead(404).end();
  });
  return {
    routes,
    asked,
    server,
    async start() {
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    stop() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A PNG whose header claims `side` × `side` pixels, holding only a few rows of data. */
function pngBomb(side: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc((side + 1) * 4))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('product photos: GET /catalog/{id}/image', () => {
  let t1: number;
  let as: Record<'rep' | 'supervisor' | 'manager' | 'admin' | 'foreignAdmin', Api>;
  let images: Awaited<ReturnType<typeof fixtureImages>>;
  let outside: string;
  let remote: ReturnType<typeof origin>;
  let inner: ReturnType<typeof origin>;
  let remoteBase: string;
  let innerBase: string;
  let withPhoto: { id: number; imagem: string }[];
  let scratch: number;
  let jpeg: Buffer;
  let makeApp: (options?: Partial<ProductImagesOptions>) => ReturnType<typeof testApp>;

  const setImage = (id: number, imagem: string | null) =>
    db.pool.query('update produtos set imagem = $1 where id_produto = $2', [imagem, id]);

  const problemOf = async (res: Response) => {
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    return (await res.json()) as Problem;
  };

  /** The scratch product names `imagem`; its photo must be refused with `code`, never served. */
  const refused = async (imagem: string, code: 'PRODUCT_IMAGE_NOT_FOUND' | 'PRODUCT_IMAGE_UNAVAILABLE') => {
    await setImage(scratch, imagem);
    const res = await as.rep('GET', `/catalog/${scratch}/image?size=thumb`);
    expect(res.status, `${imagem}: ${await res.clone().text()}`).toBe(404);
    const problem = await problemOf(res);
    expect(problem.code, imagem).toBe(code);
    return problem;
  };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [first, second] = erp.tenants as [number, number];
    t1 = first;
    const rep = erp.reps.find((r) => r.idEmpresa === t1);
    if (!rep) throw new Error('the tiny fixture lacks a representative');
    images = await fixtureImages(db.pool);
    outside = await mkdtemp(join(tmpdir(), 'campo-outside-'));
    jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c03020' } })
      .jpeg()
      .toBuffer();
    await writeFile(join(outside, 'secret.jpg'), jpeg);
    remote = origin();
    inner = origin();
    remoteBase = await remote.start();
    innerBase = await inner.start();
    makeApp = (options = {}) =>
      testApp(db.pool, {
        productImages: {
          dir: images.dir,
          fetchUrls: true,
          fetchTimeoutMs: 400,
          testOnlyExemptOrigins: [remoteBase],
          ...options,
        },
      });
    const app = makeApp();
    const login = (name: string, user: Omit<SessionUser, 'login'>) =>
      signedIn(app, db.pool, { ...user, login: `${name}@images.test` });
    as = {
      rep: await login('rep', { role: 'representative', idEmpresa: t1, codVendedor: rep.codVendedor }),
      supervisor: await login('sup', { role: 'supervisor', idEmpresa: t1, codSupervisor: rep.codSupervisor }),
      manager: await login('manager', { role: 'manager', idEmpresa: t1 }),
      admin: await login('admin', { role: 'admin', idEmpresa: t1 }),
      foreignAdmin: await login('foreign', { role: 'admin', idEmpresa: second }),
    };
    const { rows } = await db.pool.query<{ id: number; imagem: string }>(
      `select id_produto as id, imagem from produtos where id_empresa = $1 and imagem is not null order by id_produto`,
      [t1],
    );
    withPhoto = rows;
    const last = rows.at(-1);
    if (!last || rows.length < 3) throw new Error('the tiny fixture lacks products with photos');
    scratch = last.id;
  });

  afterAll(async () => {
    remote?.stop();
    inner?.stop();
    await images?.remove();
    if (outside) await rm(outside, { recursive: true, force: true });
  });

  describe('who may read it', () => {
    it('serves every role of the tenant a WebP that devices may keep privately for a week', async () => {
      const id = withPhoto[0]?.id;
      for (const [who, api] of Object.entries(as)) {
        if (who === 'foreignAdmin') continue;
        const res = await api('GET', `/catalog/${id}/image?size=thumb`);
        expect(res.status, who).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/webp');
        expect(res.headers.get('cache-control')).toBe('private, max-age=604800');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('etag')).toMatch(/^"[\w-]{32}"$/);
        expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format).toBe('webp');
      }
    });

    it("answers another tenant's admin 404 and a caller without a token 401", async () => {
      const id = withPhoto[0]?.id;
      const foreign = await as.foreignAdmin('GET', `/catalog/${id}/image`);
      expect(foreign.status).toBe(404);
      expect((await problemOf(foreign)).code).toBe('NOT_FOUND');
      const anonymous = await makeApp().request(`/api/v1/catalog/${id}/image`);
      expect(anonymous.status).toBe(401);
    });

    it('refuses a size it does not know with 400', async () => {
      const res = await as.rep('GET', `/catalog/${withPhoto[0]?.id}/image?size=huge`);
      expect(res.status).toBe(400);
      expect((await problemOf(res)).code).toBe('VALIDATION_FAILED');
    });
  });

  describe('sizes and validators', () => {
    it('serves a thumbnail 128 px wide and the full size without enlarging the 480 px source', async () => {
      const id = withPhoto[0]?.id;
      const thumb = await sharp(
        Buffer.from(await (await as.rep('GET', `/catalog/${id}/image?size=thumb`)).arrayBuffer()),
      ).metadata();
      const full = await sharp(
        Buffer.from(await (await as.rep('GET', `/catalog/${id}/image`)).arrayBuffer()),
      ).metadata();
      expect([thumb.width, thumb.height]).toEqual([128, 128]);
      expect([full.width, full.height]).toEqual([FIXTURE_IMAGE_SIDE, FIXTURE_IMAGE_SIDE]);
    });

    it('shrinks a large source to 640 px wide, keeping its aspect', async () => {
      await mkdir(join(images.dir, 'grandes'), { recursive: true });
      await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#2050a0' } })
        .png()
        .toFile(join(images.dir, 'grandes', 'foto.png'));
      await setImage(scratch, 'grandes/foto.png');
      const meta = async (size: string) =>
        sharp(
          Buffer.from(await (await as.rep('GET', `/catalog/${scratch}/image?size=${size}`)).arrayBuffer()),
        ).metadata();
      const full = await meta('full');
      const thumb = await meta('thumb');
      expect([full.width, full.height]).toEqual([640, 480]);
      expect([thumb.width, thumb.height]).toEqual([128, 96]);
    });

    it('answers 304 to the ETag it gave, and a new ETag when the file changes', async () => {
      await writeFile(join(images.dir, 'trocada.jpg'), jpeg);
      await setImage(scratch, 'trocada.jpg');
      const first = await as.rep('GET', `/catalog/${scratch}/image?size=thumb`);
      const etag = first.headers.get('etag') ?? '';
      const again = await as.rep('GET', `/catalog/${scratch}/image?size=thumb`, undefined, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toBe('private, max-age=604800');
      const weak = await as.rep('GET', `/catalog/${scratch}/image?size=thumb`, undefined, {
        'if-none-match': `"other", W/${etag}`,
      });
      expect(weak.status).toBe(304);
      const full = await as.rep('GET', `/catalog/${scratch}/image?size=full`, undefined, { 'if-none-match': etag });
      expect(full.status).toBe(200);
      expect(full.headers.get('etag')).not.toBe(etag);

      const blue = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#1030f0' } })
        .jpeg()
        .toBuffer();
      await writeFile(join(images.dir, 'trocada.jpg'), blue);
      await utimes(join(images.dir, 'trocada.jpg'), new Date(), new Date(Date.now() + 5000));
      const changed = await as.rep('GET', `/catalog/${scratch}/image?size=thumb`, undefined, { 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
    });

    it('draws every fixture product its own photo, never a blank one', async () => {
      const etags = new Set<string>();
      for (const { id } of withPhoto.slice(0, 12)) {
        const res = await as.rep('GET', `/catalog/${id}/image?size=thumb`);
        expect(res.status).toBe(200);
        etags.add(res.headers.get('etag') ?? '');
        const stats = await sharp(Buffer.from(await res.arrayBuffer())).stats();
        expect(stats.isOpaque).toBe(true);
        expect(Math.max(...stats.channels.map((c) => c.stdev))).toBeGreaterThan(20);
      }
      expect(etags.size).toBe(12);
    });
  });

  describe('no photo', () => {
    it('answers PRODUCT_IMAGE_NOT_FOUND for a product without one or a file not there', async () => {
      await setImage(scratch, null);
      const none = await as.rep('GET', `/catalog/${scratch}/image`);
      expect(none.status).toBe(404);
      expect((await problemOf(none)).detail).toBe('Este produto não tem imagem.');
      await refused('produtos/NAOEXISTE.jpg', 'PRODUCT_IMAGE_NOT_FOUND');
      await refused('..%2F..%2Fetc%2Fpasswd', 'PRODUCT_IMAGE_NOT_FOUND');
    });

    it('answers PRODUCT_IMAGE_UNAVAILABLE when the server has no images folder', async () => {
      const api = await signedIn(makeApp({ dir: undefined }), db.pool, {
        login: 'nofolder@images.test',
        role: 'manager',
        idEmpresa: t1,
      });
      const res = await api('GET', `/catalog/${withPhoto[0]?.id}/image`);
      expect(res.status).toBe(404);
      expect((await problemOf(res)).code).toBe('PRODUCT_IMAGE_UNAVAILABLE');
    });
  });

  describe('hostile paths in the ERP', () => {
    it('never reads outside the folder: .., absolute paths, backslashes, links out', async () => {
      await symlink(join(outside, 'secret.jpg'), join(images.dir, 'atalho.jpg'));
      await symlink(outside, join(images.dir, 'pasta-atalho'));
      await symlink('/dev/zero', join(images.dir, 'zero.jpg'));
      for (const path of [
        '../secret.jpg',
        `../${outside.split('/').at(-1)}/secret.jpg`,
        'produtos/../../secret.jpg',
        join(outside, 'secret.jpg'),
        `file://${join(outside, 'secret.jpg')}`,
        'C:\\imagens\\secret.jpg',
        '..\\secret.jpg',
        'atalho.jpg',
        'pasta-atalho/secret.jpg',
        'zero.jpg',
        '/dev/zero',
      ]) {
        await refused(path, 'PRODUCT_IMAGE_UNAVAILABLE');
      }
    });

    it('refuses what is not a regular file: a folder, a FIFO (without waiting on it)', async () => {
      await refused('produtos', 'PRODUCT_IMAGE_UNAVAILABLE');
      execFileSync('mkfifo', [join(images.dir, 'fila.jpg')]);
      await refused('fila.jpg', 'PRODUCT_IMAGE_UNAVAILABLE');
    });

    it('refuses a file over 10 MB before reading it', async () => {
      const huge = await open(join(images.dir, 'enorme.jpg'), 'w');
      await huge.write(jpeg);
      await huge.truncate(10 * 2 ** 20 + 1);
      await huge.close();
      const problem = await refused('enorme.jpg', 'PRODUCT_IMAGE_UNAVAILABLE');
      expect(problem.detail).toContain('10 MB');
    });

    it('refuses what its bytes say is no photo: HTML or SVG named .jpg, an empty file', async () => {
      await writeFile(join(images.dir, 'pagina.jpg'), '<!doctype html><html><script>alert(1)</script></html>');
      await writeFile(
        join(images.dir, 'desenho.jpg'),
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
      );
      await writeFile(join(images.dir, 'vazio.jpg'), '');
      for (const name of ['pagina.jpg', 'desenho.jpg', 'vazio.jpg']) {
        const problem = await refused(name, 'PRODUCT_IMAGE_UNAVAILABLE');
        expect(problem.detail).toContain('não é uma imagem');
      }
    });

    it('refuses a decompression bomb before decoding it, and a corrupt JPEG', async () => {
      const bomb = pngBomb(20_000);
      expect(bomb.length).toBeLessThan(10_000);
      await writeFile(join(images.dir, 'bomba.png'), bomb);
      expect((await refused('bomba.png', 'PRODUCT_IMAGE_UNAVAILABLE')).detail).toContain('milhões de pixels');
      await writeFile(join(images.dir, 'cortada.jpg'), jpeg.subarray(0, 200));
      await refused('cortada.jpg', 'PRODUCT_IMAGE_UNAVAILABLE');
    });
  });

  describe('URLs', () => {
    it('fetches a photo from a URL and keeps it: the second request does not reach the origin', async () => {
      remote.routes.set('/foto.jpg', (res) =>
        res.writeHead(200, { 'content-type': 'image/jpeg', etag: '"v1"' }).end(jpeg),
      );
      await setImage(scratch, `${remoteBase}/foto.jpg`);
      const first = await as.rep('GET', `/catalog/${scratch}/image?size=thumb`);
      expect(first.status).toBe(200);
      expect((await sharp(Buffer.from(await first.arrayBuffer())).metadata()).width).toBe(128);
      const again = await as.manager('GET', `/catalog/${scratch}/image?size=thumb`);
      expect(again.status).toBe(200);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(remote.asked.filter((u) => u === '/foto.jpg')).toHaveLength(1);
    });

    it('gives up on a URL that stalls, within its time', async () => {
      remote.routes.set('/lenta.jpg', () => undefined);
      await setImage(scratch, `${remoteBase}/lenta.jpg`);
      const started = performance.now();
      const problem = await refused(`${remoteBase}/lenta.jpg`, 'PRODUCT_IMAGE_UNAVAILABLE');
      expect(performance.now() - started).toBeLessThan(3000);
      expect(problem.detail).toContain('não respondeu');
    });

    it('never follows a redirect inward, nor fetches an internal address', async () => {
      inner.routes.set('/interna.jpg', (res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg));
      const redirect = (to: string) => (res: ServerResponse) => res.writeHead(302, { location: to }).end();
      remote.routes.set('/para-loopback', redirect(`${innerBase}/interna.jpg`));
      remote.routes.set('/para-metadados', redirect('http://169.254.169.254/latest/meta-data/'));
      remote.routes.set('/para-arquivo', redirect('file:///etc/passwd'));
      for (const url of [
        `${remoteBase}/para-loopback`,
        `${remoteBase}/para-metadados`,
        `${remoteBase}/para-arquivo`,
        `${innerBase}/interna.jpg`,
        `${innerBase.replace('127.0.0.1', 'localhost')}/interna.jpg`,
        `${remoteBase.replace('127.0.0.1', '[::ffff:127.0.0.1]')}/foto.jpg`,
        'http://10.1.2.3/foto.jpg',
        'http://192.168.0.10/foto.jpg',
        'http://[fd00::1]/foto.jpg',
        'http://169.254.169.254/latest/meta-data/',
        'ftp://example.com/foto.jpg',
        'http://usuario:senha@example.com/foto.jpg',
      ]) {
        await refused(url, 'PRODUCT_IMAGE_UNAVAILABLE');
      }
      expect(inner.asked).toEqual([]);
    });

    it('refuses a URL whose body is too large or no image, and one that answers 500', async () => {
      remote.routes.set('/gigante.jpg', (res) => {
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(50 * 2 ** 20) });
        res.write(jpeg);
      });
      remote.routes.set('/pagina.jpg', (res) =>
        res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html></html>'),
      );
      remote.routes.set('/erro.jpg', (res) => res.writeHead(500).end());
      expect((await refused(`${remoteBase}/gigante.jpg`, 'PRODUCT_IMAGE_UNAVAILABLE')).detail).toContain('10 MB');
      await refused(`${remoteBase}/pagina.jpg`, 'PRODUCT_IMAGE_UNAVAILABLE');
      await refused(`${remoteBase}/erro.jpg`, 'PRODUCT_IMAGE_UNAVAILABLE');
      await refused(`${remoteBase}/nao-existe.jpg`, 'PRODUCT_IMAGE_NOT_FOUND');
    });

    it('asks the origin again once its photo is stale, conditionally, and resizes a changed one', async () => {
      let version = 'r1';
      const conditional: string[] = [];
      remote.routes.set('/revalidada.jpg', (res, req) => {
        const asked = req.headers['if-none-match'];
        if (asked) conditional.push(asked);
        if (asked === `"${version}"`) return void res.writeHead(304, { etag: `"${version}"` }).end();
        const color = version === 'r1' ? '#20a040' : '#a02040';
        void sharp({ create: { width: 200, height: 200, channels: 3, background: color } })
          .jpeg()
          .toBuffer()
          .then((body) => res.writeHead(200, { 'content-type': 'image/jpeg', etag: `"${version}"` }).end(body));
      });
      await setImage(scratch, `${remoteBase}/revalidada.jpg`);
      const api = await signedIn(makeApp({ urlFreshMs: 0 }), db.pool, {
        login: 'stale@images.test',
        role: 'manager',
        idEmpresa: t1,
      });
      const first = await api('GET', `/catalog/${scratch}/image?size=thumb`);
      const second = await api('GET', `/catalog/${scratch}/image?size=thumb`);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(conditional).toEqual(['"r1"']);
      version = 'r2';
      const changed = await api('GET', `/catalog/${scratch}/image?size=thumb`);
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(first.headers.get('etag'));
    });

    it('does not ask a failing URL again for a while', async () => {
      remote.routes.set('/falha.jpg', (res) => res.writeHead(503).end());
      remote.routes.set('/html.jpg', (res) =>
        res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html></html>'),
      );
      for (const path of ['/falha.jpg', '/html.jpg']) {
        await refused(`${remoteBase}${path}`, 'PRODUCT_IMAGE_UNAVAILABLE');
        await refused(`${remoteBase}${path}`, 'PRODUCT_IMAGE_UNAVAILABLE');
        expect(remote.asked.filter((u) => u === path)).toHaveLength(1);
      }
    });

    it('fetches no URL unless the operator allows it', async () => {
      remote.routes.set('/permitida.jpg', (res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg));
      await setImage(scratch, `${remoteBase}/permitida.jpg`);
      const api = await signedIn(makeApp({ fetchUrls: false }), db.pool, {
        login: 'nourls@images.test',
        role: 'manager',
        idEmpresa: t1,
      });
      const res = await api('GET', `/catalog/${scratch}/image`);
      expect(res.status).toBe(404);
      expect((await problemOf(res)).code).toBe('PRODUCT_IMAGE_UNAVAILABLE');
      expect(remote.asked).not.toContain('/permitida.jpg');
    });
  });
});
