// The representative's day in Chromium at 360 px (issue #42): today's route on Início, a
// check-in with a mocked position, nothing sold, a reason that requires a photo (a real JPEG
// from the camera input, resized on the phone), the check-out, all with the server stopped and
// the network cut; back online the visit reaches the server once, with its reason, photo and
// distance, as the supervisor sees it through GET /visits. A refused location still checks in,
// marked without position. Each new screen passes the layout audit.
import type { RouteDay, Visit } from '@campo/shared';
import { isoWeekday } from '@campo/shared/visits';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { callApi, logInAndSync, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { auditScreen } from '../support/screen-audit.ts';

const REP = 'rep.visitas@campo.test';
const SUP = 'sup.visitas@campo.test';
const MANAGER = 'ger.visitas@campo.test';
const PASSWORD = 'senha-das-visitas-1';
const WAIT = { timeout: 30_000 };
const PHOTO_REASON = 'Loja fechada (foto)';
/** Where the first client is, and the phone 40 m north of it. */
const SHOP = { latitude: -23.5505, longitude: -46.6333 };
const NEAR = { latitude: SHOP.latitude + 40 / 111_195, longitude: SHOP.longitude, accuracy: 12 };

let route: { id: number; name: string }[] = [];
const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { login: REP, name: 'Rita Rota', role: 'representative' },
    { login: SUP, name: 'Sérgio Supervisor', role: 'supervisor' },
    { login: MANAGER, name: 'Gina Gerente', role: 'manager' },
  ],
  setUp: async ({ db, rep }) => {
    // Today's route: two clients of the portfolio, by the ERP's visit days; no other is due.
    const { rows } = await db.pool.query<{ id: number; name: string }>(
      `select id_cliente as id, coalesce(nullif(nome_fantasia, ''), razao_social) as name from app.vw_clientes
        where id_empresa = $1 and cod_vendedor = $2 and cadastro_ativo
        order by id_cliente limit 2`,
      [rep.idEmpresa, rep.codVendedor],
    );
    route = rows;
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    await db.pool.query(
      `delete from public.corrent_visitas where id_corrent in
         (select id_cliente from app.vw_clientes where id_empresa = $1 and cod_vendedor = $2)`,
      [rep.idEmpresa, rep.codVendedor],
    );
    await db.pool.query(
      'insert into public.corrent_visitas (id_corrent, dia_semana) select unnest($1::integer[]), $2',
      [rows.map((r) => r.id), isoWeekday(today)],
    );
    await db.pool.query('update public.corrent set latitude = $2, longitude = $3 where id_corrent = $1', [
      rows[0]?.id,
      SHOP.latitude,
      SHOP.longitude,
    ]);
  },
});
const db = suite.db;
let server: WebServer;
let page: Page;
let visitId: string;

beforeAll(() => {
  ({ server, page } = suite);
});

async function audited(name: string) {
  const found = await auditScreen(page);
  expect(found.overflow, name).toEqual([]);
  expect(found.contrast, name).toEqual([]);
}

const strip = () => page.getByRole('status', { name: 'Sincronização' });
const routeCard = () => page.getByRole('article', { name: 'Roteiro de hoje' });
const visitBlock = () => page.getByRole('region', { name: 'Visita' });
const goHome = () =>
  page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Início' }).click();

/** A camera's photo: a 2400 × 1800 JPEG drawn in the page, far above what the server takes once resized. */
async function cameraPhoto(): Promise<Buffer> {
  // A script rather than a function: the test project has no DOM types.
  const base64 = (await page.evaluate(`(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 2400;
    canvas.height = 1800;
    const ctx = canvas.getContext('2d');
    // Noise, so the JPEG is large, as a real photo is.
    const image = ctx.createImageData(canvas.width, canvas.height);
    for (let i = 0; i < image.data.length; i++) image.data[i] = Math.imul(i, 2654435761) >>> 24;
    ctx.putImageData(image, 0, 0);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.95));
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  })()`)) as string;
  const photo = Buffer.from(base64, 'base64');
  // Larger than the server takes: the phone must make it smaller.
  expect(photo.length).toBeGreaterThan(768 * 1024);
  return photo;
}

describe("the representative's day in the field", () => {
  it("logs in, and Início shows today's route of two clients to visit", async () => {
    const manager = await suite.token(MANAGER);
    const created = await callApi(server, manager, 'POST', '/visit-reasons', {
      descricao: PHOTO_REASON,
      exigeFoto: true,
    });
    expect(created.status).toBe(201);
    await logInAndSync(page, server.url, REP, PASSWORD);
    await routeCard().getByText('Roteiro de hoje: 0 de 2 visitados, 0 com pedido').waitFor(WAIT);
    const names = await routeCard().getByRole('listitem').getByRole('link').allTextContents();
    expect([...names].sort()).toEqual(route.map((r) => r.name).sort());
    // The representative's order: the second client first.
    const second = route.find((r) => r.name === names[1])?.name as string;
    await routeCard()
      .getByRole('button', { name: `Subir ${second}` })
      .click();
    await expect
      .poll(async () => routeCard().getByRole('listitem').getByRole('link').first().textContent(), WAIT)
      .toBe(second);
    await audited('Início com o roteiro');
  });

  it('checks in with a position, sells nothing and checks out with a photo, all offline', async () => {
    const [first] = route as [{ id: number; name: string }];
    await suite.context.grantPermissions(['geolocation'], { origin: server.url });
    await suite.context.setGeolocation(NEAR);
    await suite.goOffline();
    await expect(page.request.get(`${server.url}/api/v1/health`).then((r) => r.status())).rejects.toThrow();

    await routeCard().getByRole('link', { name: first.name }).click();
    await page.getByRole('heading', { name: first.name }).waitFor(WAIT);
    await visitBlock().getByRole('button', { name: 'Cheguei' }).click();
    await visitBlock()
      .getByText(/Em visita desde \d\d:\d\d/)
      .waitFor(WAIT);
    await visitBlock()
      .getByText(/a (3\d|4\d) m do cliente/)
      .waitFor(WAIT);
    await audited('Cliente em visita');

    await visitBlock().getByRole('button', { name: 'Saí' }).click();
    const sheet = page.getByRole('dialog', { name: `Saída de ${first.name}` });
    await sheet.getByRole('radio', { name: new RegExp(PHOTO_REASON.replace(/[()]/g, '\\$&')) }).check();
    await sheet.getByRole('button', { name: 'Confirmar saída' }).click();
    await sheet.getByRole('alert').filter({ hasText: 'pede uma foto' }).waitFor(WAIT);
    await sheet
      .getByLabel('Foto', { exact: true })
      .setInputFiles({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: await cameraPhoto() });
    await sheet.getByText(/Foto pronta \(\d+ KiB\)/).waitFor(WAIT);
    await audited('Motivo de não venda');
    await sheet.getByRole('button', { name: 'Confirmar saída' }).click();
    await visitBlock().getByText('Saída registrada.').waitFor(WAIT);
    await visitBlock()
      .getByText(/sem pedido: Loja fechada/)
      .waitFor(WAIT);

    await goHome();
    await routeCard().getByText('Roteiro de hoje: 1 de 2 visitados, 0 com pedido').waitFor(WAIT);
    await routeCard()
      .getByRole('listitem')
      .filter({ hasText: first.name })
      .getByText('Visitado sem pedido')
      .waitFor(WAIT);
    await expect.poll(() => strip().textContent(), WAIT).toContain('Aguardando envio: 1 visita');
    const held = await db.pool.query('select 1 from app.visitas where id_cliente = $1', [first.id]);
    expect(held.rowCount).toBe(0);
  });

  it('reaches the server once back online, with its reason, photo and distance', async () => {
    const [first] = route as [{ id: number; name: string }];
    const supervisor = await suite.token(SUP);
    let visit: Visit | undefined;
    await expect
      .poll(
        async () => {
          const res = await fetch(`${server.url}/api/v1/visits?codVendedor=${suite.rep.codVendedor}`, {
            headers: { authorization: `Bearer ${supervisor}` },
          });
          visit = ((await res.json()) as { items: Visit[] }).items.find((v) => v.idCliente === first.id);
          return visit?.estado;
        },
        { timeout: 60_000 },
      )
      .toBe('sem_pedido');
    expect(visit).toMatchObject({ motivo: PHOTO_REASON, foto: true, noRoteiro: true });
    expect(visit?.distanciaMetros).toBeGreaterThanOrEqual(35);
    expect(visit?.distanciaMetros).toBeLessThanOrEqual(45);
    visitId = visit?.id as string;
    const rows = await db.pool.query<{ n: number; fotos: number }>(
      `select (select count(*)::int from app.visitas where id_cliente = $1) as n,
              (select count(*)::int from app.visita_fotos where chave_visita = $2) as fotos`,
      [first.id, visitId],
    );
    expect(rows.rows[0]).toEqual({ n: 1, fotos: 1 });
    await routeCard().getByText('Roteiro de hoje: 1 de 2 visitados, 0 com pedido').waitFor(WAIT);
    // The order set on the phone reached the server: the supervisor sees the route in it.
    const seen = await fetch(`${server.url}/api/v1/visits/route?codVendedor=${suite.rep.codVendedor}`, {
      headers: { authorization: `Bearer ${supervisor}` },
    });
    const shown = await routeCard().getByRole('listitem').getByRole('link').allTextContents();
    const byName = new Map(route.map((r) => [r.name, r.id]));
    expect(((await seen.json()) as RouteDay).clientes.map((c) => c.idCliente)).toEqual(shown.map((n) => byName.get(n)));
  });

  it('checks in without position when location is refused, and says so', async () => {
    const [, second] = route as [unknown, { id: number; name: string }];
    await suite.context.clearPermissions();
    await routeCard().getByRole('link', { name: second.name }).click();
    await page.getByRole('heading', { name: second.name }).waitFor(WAIT);
    await visitBlock().getByRole('button', { name: 'Cheguei' }).click();
    await visitBlock()
      .getByText(/Chegada registrada sem localização/)
      .waitFor(WAIT);
    await visitBlock()
      .getByText(/Em visita desde \d\d:\d\d · sem localização/)
      .waitFor(WAIT);
    await expect
      .poll(async () => {
        const r = await db.pool.query<{ lat: number | null }>(
          'select latitude as lat from app.visitas where id_cliente = $1',
          [second.id],
        );
        return r.rowCount === 1 ? `held, ${r.rows[0]?.lat ?? 'sem posição'}` : 'not yet';
      }, WAIT)
      .toBe('held, sem posição');
    await goHome();
    await routeCard().getByText('Roteiro de hoje: 2 de 2 visitados, 0 com pedido').waitFor(WAIT);
    await routeCard().getByRole('listitem').filter({ hasText: second.name }).getByText('Em visita').waitFor(WAIT);
  });
});

describe('a check-out the server refuses', () => {
  it('shows its reason on the client page, and the visit is closed again with another', async () => {
    const [, second] = route as [unknown, { id: number; name: string }];
    const manager = await suite.token(MANAGER);
    const reasons = (await (
      await fetch(`${server.url}/api/v1/visit-reasons`, { headers: { authorization: `Bearer ${manager}` } })
    ).json()) as { items: { id: number; codigo: string | null }[] };
    const preco = reasons.items.find((r) => r.codigo === 'preco')?.id as number;
    const semNecessidade = reasons.items.find((r) => r.codigo === 'sem_necessidade')?.id as number;

    // The phone loses its signal; meanwhile the manager retires "Preço", which the phone still offers.
    await suite.context.setOffline(true);
    onTestFinished(() => suite.context.setOffline(false));
    expect((await callApi(server, manager, 'PATCH', `/visit-reasons/${preco}`, { ativo: false })).status).toBe(200);
    await routeCard().getByRole('link', { name: second.name }).click();
    await visitBlock().getByRole('button', { name: 'Saí' }).click();
    const sheet = page.getByRole('dialog', { name: `Saída de ${second.name}` });
    await sheet.getByRole('radio', { name: 'Preço' }).check();
    await sheet.getByRole('button', { name: 'Confirmar saída' }).click();
    await visitBlock().getByText('Saída registrada.').waitFor(WAIT);

    await suite.context.setOffline(false);
    await visitBlock().getByRole('alert').filter({ hasText: 'A saída não foi aceita pelo servidor' }).waitFor(WAIT);
    await visitBlock()
      .getByText(/Em visita desde \d\d:\d\d/)
      .waitFor(WAIT);
    await strip().getByRole('link', { name: '1 visita recusada' }).waitFor(WAIT);
    await audited('Saída recusada');
    await visitBlock().getByRole('button', { name: 'Saí' }).click();
    await expect.poll(() => sheet.getByRole('radio', { name: 'Preço' }).count(), WAIT).toBe(0);
    await sheet.getByRole('radio', { name: 'Sem necessidade' }).check();
    await sheet.getByRole('button', { name: 'Confirmar saída' }).click();
    await expect
      .poll(async () => {
        const r = await db.pool.query<{ motivo: number | null }>(
          'select id_motivo as motivo from app.visitas where id_cliente = $1 and saida_em is not null',
          [second.id],
        );
        return r.rows[0]?.motivo ?? null;
      }, WAIT)
      .toBe(semNecessidade);
    await visitBlock().getByRole('button', { name: 'Cheguei' }).waitFor(WAIT);
  });
});
