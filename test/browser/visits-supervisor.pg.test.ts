// The supervisor's and manager's Visitas screen in real Chromium at 1280 px (issue #42,
// docs/visits.md "The supervisor's screens"). A representative's day is seeded through the REST
// API (four visits: one with an order, one far from the client, one with a reason, a note and a
// photo whose client has no position yet, one without location outside the route); the
// supervisor sees the team card on Início, the numbers by name, the visits sorted by time with
// the photo, edits a client's visit days and confirms the proposed position; a manager sees
// another team. Without MAP_TILE_URL there is no map, only the list; with a local tile server
// the map's tiles are requested. The layout audit runs at 1280 and 360 px.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { businessDate, isoWeekday, type VisitPlan, type VisitReason } from '@campo/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../fixtures/images.ts';
import { callApi, logIn, logOut, startWebServer, WAIT, type WebServer } from '../support/browser.ts';
import { type Representative, useBrowserSuite } from '../support/browser-suite.ts';
import { anOrder } from '../support/builders.ts';
import { auditScreen } from '../support/screen-audit.ts';

const REP = 'rep.visitas@campo.test';
const SUP = 'sup.visitas@campo.test';
const MANAGER = 'gerente.visitas@campo.test';
const PASSWORD = 'senha-das-visitas-1';
const DESK = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 780 };
const today = businessDate();

/** The route's clients (the ERP keeps today as their visit day) and one visited outside it. */
let onRoute: number[];
let extra: number;
/** A client without ERP days, whose plan the supervisor edits. */
let planned: { idCliente: number; nome: string };
let outsider: Representative;
const names = new Map<number, string>();
const clientNames = new Map<number, string>();
let photoVisit: string;

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { login: REP, name: 'Rita Visitas', role: 'representative' },
    { login: SUP, name: 'Sérgio Visitas', role: 'supervisor' },
    { login: MANAGER, name: 'Gabriela Visitas', role: 'manager' },
  ],
  setUp: async ({ db, rep }) => {
    const { rows } = await db.pool.query<{ id: number }>(
      `select id_cliente as id from app.vw_clientes
        where id_empresa = $1 and cod_vendedor = $2 and cadastro_ativo order by id_cliente`,
      [rep.idEmpresa, rep.codVendedor],
    );
    const ids = rows.map((r) => r.id);
    if (ids.length < 6) throw new Error('the fixture representative has fewer than six clients');
    onRoute = ids.slice(0, 4);
    extra = ids[4] as number;
    // The day's positivation is the test's: the fixture's ERP orders of today move a day back.
    await db.pool.query(
      `update public.pedidos_venda set dt_emissao = current_date - 1
        where dt_emissao >= current_date and id_corrent = any($1)`,
      [ids],
    );
    await db.pool.query('delete from public.corrent_visitas where id_corrent = any($1)', [ids]);
    await db.pool.query(
      'insert into public.corrent_visitas (id_corrent, dia_semana) select unnest($1::integer[]), $2',
      [onRoute, isoWeekday(today)],
    );
    // The ERP knows where the first two shops are; the third has no position (a check-in proposes it).
    await db.pool.query('update public.corrent set latitude = null, longitude = null where id_corrent = any($1)', [
      ids,
    ]);
    for (const [i, id] of onRoute.slice(0, 2).entries()) {
      await db.pool.query('update public.corrent set latitude = $2, longitude = $3 where id_corrent = $1', [
        id,
        SHOP.latitude + i * 0.01,
        SHOP.longitude,
      ]);
    }
  },
});

const SHOP = { latitude: -23.5505, longitude: -46.6333 };
/** A point about `meters` north of the shop `i` (see setUp). */
const near = (i: number, meters: number) => ({
  latitude: SHOP.latitude + i * 0.01 + meters / 111_195,
  longitude: SHOP.longitude,
  precisao: 10,
});
/** A São Paulo wall-clock time of today. */
const at = (hhmm: string) => `${today}T${hhmm}:00-03:00`;

let server: WebServer;
let page: Page;
let tiles: Server;
let tileRequests = 0;
let tiled: WebServer | undefined;

const text = async (where: { textContent(): Promise<string | null> }) =>
  ((await where.textContent()) ?? '')
    .replace(/\u00a0/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

async function ok(res: Promise<Response>, status = 200): Promise<unknown> {
  const r = await res;
  const body = await r.text();
  expect(r.status, body).toBe(status);
  return body ? JSON.parse(body) : undefined;
}

/** The screen at rest: nothing loading, no transition half-way (a tab's colours while it fades in). */
async function settled() {
  await expect.poll(() => page.locator('[aria-busy="true"]').count(), WAIT).toBe(0);
  await page.waitForFunction(() =>
    (globalThis as unknown as { document: { getAnimations(): { playState: string }[] } }).document
      .getAnimations()
      .every((a) => a.playState !== 'running'),
  );
}

async function audited(name: string) {
  for (const size of [DESK, PHONE]) {
    await page.setViewportSize(size);
    await settled();
    const found = await auditScreen(page);
    expect(found.overflow, `${name} at ${size.width} px`).toEqual([]);
    expect(found.contrast, `${name} at ${size.width} px`).toEqual([]);
  }
  await page.setViewportSize(DESK);
}

beforeAll(async () => {
  ({ server, page } = suite);
  const { rep } = suite;
  const found = suite.erp.reps.find((r) => r.idEmpresa === rep.idEmpresa && r.codSupervisor !== rep.codSupervisor);
  if (!found) throw new Error('the fixture has no representative outside the first one’s team');
  outsider = found;
  const { rows } = await suite.db.pool.query<{ cod_vendedor: number; nome: string }>(
    'select cod_vendedor, nome from app.vw_vendedores where id_empresa = $1 and cod_vendedor = any($2::int[])',
    [rep.idEmpresa, [rep.codVendedor, outsider.codVendedor]],
  );
  for (const r of rows) names.set(r.cod_vendedor, r.nome);

  const token = await suite.token(REP);
  const as = (method: string, path: string, body?: unknown) => callApi(server, token, method, path, body);
  const reasons = ((await ok(as('GET', '/visit-reasons'))) as { items: VisitReason[] }).items;
  const reason = (codigo: string) => reasons.find((r) => r.codigo === codigo)?.id;
  const [a, b, c] = onRoute as [number, number, number];

  // 08:00–08:30 at the first shop, 40 m off, with an order placed during the visit.
  const sold = randomUUID();
  await ok(as('POST', '/visits', { id: sold, idCliente: a, em: at('08:00'), posicao: near(0, 40) }), 201);
  await anOrder(suite.db.pool, rep, { client: { idCliente: a, razaoSocial: 'Cliente do pedido' } });
  await ok(as('POST', `/visits/${sold}/checkout`, { em: at('08:30'), posicao: near(0, 40) }));
  // 09:00–09:20 checked in 1.2 km from the second shop: far; no sale, for the price.
  const far = randomUUID();
  await ok(as('POST', '/visits', { id: far, idCliente: b, em: at('09:00'), posicao: near(1, 1200) }), 201);
  await ok(as('POST', `/visits/${far}/checkout`, { em: at('09:20'), idMotivo: reason('preco') }));
  // 10:00–10:45 at a shop without a position (proposes one), closed, a note and a photo.
  photoVisit = randomUUID();
  await ok(as('POST', '/visits', { id: photoVisit, idCliente: c, em: at('10:00'), posicao: near(3, 0) }), 201);
  const put = await fetch(`${server.url}/api/v1/visits/${photoVisit}/photo`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
    body: png(40, 30),
  });
  expect(put.status, await put.text()).toBeLessThan(300);
  await ok(
    as('POST', `/visits/${photoVisit}/checkout`, {
      em: at('10:45'),
      idMotivo: reason('fechado'),
      observacao: 'Fechado para balanço',
    }),
  );
  // 11:00–11:10 outside the route, location refused.
  const blind = randomUUID();
  await ok(as('POST', '/visits', { id: blind, idCliente: extra, em: at('11:00'), posicao: null }), 201);
  await ok(as('POST', `/visits/${blind}/checkout`, { em: at('11:10'), idMotivo: reason('sem_necessidade') }));

  const sup = await suite.token(SUP);
  const day = (await ok(
    callApi(server, sup, 'GET', `/visits?codVendedor=${rep.codVendedor}&data=${today}`, undefined),
  )) as { items: { idCliente: number; nomeCliente: string }[] };
  for (const v of day.items) clientNames.set(v.idCliente, v.nomeCliente);
  const plans = (await ok(
    callApi(server, sup, 'GET', `/visit-plans?codVendedor=${rep.codVendedor}&pageSize=25`, undefined),
  )) as { items: (VisitPlan & { nome: string })[] };
  const free = plans.items.find((p) => p.origem !== 'erp');
  if (!free) throw new Error('no client without ERP visit days on the first page of the plans');
  planned = { idCliente: free.idCliente, nome: free.nome };

  // A tile server of one grey tile, counting what the map asks.
  const tile = png(256, 256);
  tiles = createServer((req, res) => {
    if (/^\/\d+\/\d+\/\d+\.png$/.test(req.url ?? '')) tileRequests++;
    res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' });
    res.end(tile);
  });
  await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
}, 120_000);

afterAll(async () => {
  await tiled?.close();
  await new Promise<void>((resolve) => (tiles ? tiles.close(() => resolve()) : resolve()));
});

describe('the supervisor at 1280 px', () => {
  it('sees the route on the team card, which opens the representative’s day', async () => {
    await page.setViewportSize(DESK);
    await logIn(page, server.url, SUP, PASSWORD);
    const repName = names.get(suite.rep.codVendedor) ?? '';
    const card = page
      .getByRole('list', { name: 'Roteiro de hoje por representante' })
      .getByRole('link')
      .filter({ hasText: repName });
    await expect.poll(() => text(card.locator('.mg-muted')), WAIT).toBe('Roteiro: 3/4 · 1 com pedido');
    await audited('Início do supervisor');
    await card.click();
    await page.getByRole('heading', { name: 'Visitas', level: 1 }).waitFor(WAIT);
    await page.getByRole('heading', { name: new RegExp(`^Visitas de ${repName} em `) }).waitFor(WAIT);
  });

  it('sees the day’s numbers by name, and the visits sorted by time with the photo', async () => {
    const repName = names.get(suite.rep.codVendedor) ?? '';
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: repName }) });
    await expect.poll(() => row.getByRole('cell').allTextContents(), WAIT).toHaveLength(7);
    const cells = await row.getByRole('cell').allTextContents();
    expect([...cells.slice(0, 3), ...cells.slice(4)]).toEqual(['3/4 (75%)', '4', '1/4 (25%)', '1 h 45 min', '1', '1']);
    // Tied reasons come in any order.
    expect((cells[3] ?? '').split('; ').sort()).toEqual(['Fechado: 1', 'Preço: 1', 'Sem necessidade: 1']);
    await page.getByRole('columnheader', { name: 'Longe (> 300 m)' }).waitFor(WAIT);
    // Other names of the team are there too, none of another team.
    expect(await page.getByRole('rowheader', { name: names.get(outsider.codVendedor) ?? '' }).count()).toBe(0);

    const visits = page.getByRole('list', { name: `Visitas de ${repName}, por horário` }).getByRole('listitem');
    await expect.poll(() => visits.count(), WAIT).toBe(4);
    const [a, b, c] = onRoute as [number, number, number];
    const shown = await Promise.all([0, 1, 2, 3].map((i) => text(visits.nth(i))));
    expect(shown[0]).toContain(clientNames.get(a));
    expect(shown[0]).toContain('08:00 – 08:30 · 30 min');
    expect(shown[0]).toMatch(/Com pedido Pedido nº \d+/);
    expect(shown[0]).toContain('a 40 m do cliente');
    expect(shown[1]).toContain(clientNames.get(b));
    expect(shown[1]).toContain('Sem pedido Preço');
    expect(shown[1]).toContain('a 1,2 km do cliente Longe');
    expect(shown[2]).toContain(clientNames.get(c));
    expect(shown[2]).toContain('10:00 – 10:45 · 45 min');
    expect(shown[2]).toContain('Fechado');
    expect(shown[2]).toContain('“Fechado para balanço”');
    expect(shown[2]).toContain('Posição do cliente desconhecida');
    expect(shown[3]).toContain(clientNames.get(extra));
    expect(shown[3]).toContain('fora do roteiro');
    expect(shown[3]).toContain('Sem localização');
    // Only the far ones: the visit 1.2 km away.
    await page.getByLabel('Só as visitas longe do cliente (> 300 m)').check();
    await expect.poll(() => visits.count(), WAIT).toBe(1);
    expect(await text(visits.first())).toContain(clientNames.get(b));
    await page.getByLabel('Só as visitas longe do cliente (> 300 m)').uncheck();
    await expect.poll(() => visits.count(), WAIT).toBe(4);
    // No tile server: no map, the list alone.
    expect(await page.locator('.visit-map').count()).toBe(0);

    // The photo came through the token, as a blob: the page never put the token in a URL.
    const open = page.getByRole('button', { name: `Abrir a foto da visita a ${clientNames.get(c)}` });
    await open.waitFor(WAIT);
    const thumb = open.locator('img');
    await expect
      .poll(() => thumb.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), WAIT)
      .toBe(40);
    expect(await thumb.getAttribute('src')).toMatch(/^blob:/);
    await open.click();
    const dialog = page.getByRole('dialog', { name: `Foto da visita a ${clientNames.get(c)}` });
    await dialog.waitFor(WAIT);
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await dialog.waitFor({ state: 'hidden', ...WAIT });
    await audited('Visitas, dia do representante');
  });

  it('edits a client’s visit days; the ERP’s stay read-only', async () => {
    await page.getByRole('navigation', { name: 'Partes de Visitas' }).getByRole('link', { name: 'Roteiros' }).click();
    const cards = page.getByRole('list', { name: 'Dias de visita dos clientes' }).getByRole('listitem');
    const erpCard = cards.filter({ hasText: clientNames.get(onRoute[0] as number) ?? '' });
    await erpCard.waitFor(WAIT);
    expect(await text(erpCard)).toContain('definido no ERP');
    expect(await erpCard.getByRole('button').count()).toBe(0);

    await page.getByRole('button', { name: `Editar os dias de visita de ${planned.nome}` }).click();
    const form = page.getByRole('form', { name: `Dias de visita de ${planned.nome}` });
    await form.getByLabel('Segunda').check();
    await form.getByLabel('Quarta').check();
    // Every two weeks needs the week it counts from: refused in pt-BR before anything is sent.
    const frequency = form.getByLabel('Frequência');
    await frequency.nth(1).selectOption('2');
    await form.getByRole('button', { name: 'Salvar dias' }).click();
    await form.getByText('Informe a data de uma semana de visita.').waitFor(WAIT);
    await form.getByLabel('A partir da semana de').fill('04/11/2026');
    await form.getByRole('button', { name: 'Salvar dias' }).click();
    await page.getByText(`Dias de visita de ${planned.nome} salvos.`).waitFor(WAIT);
    const card = cards.filter({ hasText: planned.nome });
    await expect.poll(() => text(card), WAIT).toContain('Seg · Qua a cada 2 semanas (desde 04/11/2026)');
    const plan = (await ok(
      callApi(server, await suite.token(SUP), 'GET', `/visit-plans/${planned.idCliente}`, undefined),
    )) as VisitPlan;
    expect(plan).toEqual({
      idCliente: planned.idCliente,
      origem: 'campo',
      dias: [
        { diaSemana: 1, intervaloSemanas: 1, dataBase: null },
        { diaSemana: 3, intervaloSemanas: 2, dataBase: '2026-11-04' },
      ],
    });
    await audited('Visitas, roteiros');
  });

  it('confirms the position a first check-in proposed', async () => {
    await page
      .getByRole('navigation', { name: 'Partes de Visitas' })
      .getByRole('link', { name: 'Posições a confirmar' })
      .click();
    const c = onRoute[2] as number;
    const nome = clientNames.get(c) ?? '';
    const item = page
      .getByRole('list', { name: 'Posições a confirmar' })
      .getByRole('listitem')
      .filter({ hasText: nome });
    await expect.poll(() => text(item), WAIT).toContain('Posição proposta: -23,5');
    await audited('Visitas, posições');
    await item.getByRole('button', { name: `Confirmar a posição de ${nome}` }).click();
    await page.getByText(`Posição de ${nome} confirmada.`, { exact: false }).waitFor(WAIT);
    await expect.poll(() => item.count(), WAIT).toBe(0);
    const visit = (await ok(callApi(server, await suite.token(SUP), 'GET', `/visits/${photoVisit}`, undefined))) as {
      distanciaMetros: number | null;
    };
    expect(visit.distanciaMetros).toBe(0);
    await logOut(page);
  });
});

describe('the manager', () => {
  it('sees another team by choosing its supervisor, and keeps the reasons', async () => {
    await logIn(page, server.url, MANAGER, PASSWORD);
    await page.getByRole('navigation').getByRole('link', { name: 'Visitas' }).first().click();
    await page.getByRole('heading', { name: 'Visitas', level: 1 }).waitFor(WAIT);
    const otherName = names.get(outsider.codVendedor) ?? '';
    const { rows } = await suite.db.pool.query<{ nome: string }>(
      'select nome from app.vw_supervisores where id_empresa = $1 and cod_supervisor = $2',
      [outsider.idEmpresa, outsider.codSupervisor],
    );
    await page.getByLabel('Equipe').selectOption({ label: rows[0]?.nome ?? '' });
    await expect
      .poll(() => page.getByRole('rowheader', { name: names.get(suite.rep.codVendedor) ?? '' }).count(), WAIT)
      .toBe(0);
    await page.getByRole('rowheader', { name: otherName }).waitFor(WAIT);
    await audited('Visitas do gerente');

    await page
      .getByRole('navigation', { name: 'Partes de Visitas' })
      .getByRole('link', { name: 'Motivos de não venda' })
      .click();
    await page.getByLabel('Texto do motivo').last().fill('Cliente em reforma');
    await page.getByRole('form', { name: 'Novo motivo' }).getByLabel('Exige foto').check();
    await page.getByRole('button', { name: 'Incluir motivo' }).click();
    await page.getByText('Motivo “Cliente em reforma” incluído.').waitFor(WAIT);
    const added = page.getByRole('form', { name: 'Motivo Cliente em reforma' });
    await added.getByRole('button', { name: 'Desativar' }).click();
    await page.getByText('Motivo “Cliente em reforma” desativado.').waitFor(WAIT);
    const kept = (
      (await ok(callApi(server, await suite.token(MANAGER), 'GET', '/visit-reasons', undefined))) as {
        items: VisitReason[];
      }
    ).items.find((r) => r.descricao === 'Cliente em reforma');
    expect(kept).toMatchObject({ exigeFoto: true, exigeObservacao: false, ativo: false });
    await audited('Visitas, motivos');
    await logOut(page);
  });
});

describe('with a tile server configured', () => {
  it('draws the day on a map whose tiles come from it', async () => {
    const { port } = tiles.address() as AddressInfo;
    // A credit with characters HTML would read: Leaflet writes attributions as HTML.
    const credit = '© OpenStreetMap & colaboradores <b>não é HTML</b>';
    tiled = await startWebServer(suite.db.pool, {
      mapTileUrl: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`,
      mapTileAttribution: credit,
    });
    await logIn(page, tiled.url, SUP, PASSWORD);
    await page.goto(`${tiled.url}/visitas?rep=${suite.rep.codVendedor}`);
    const map = page.getByRole('region', { name: /^Mapa das visitas de / });
    await map.waitFor(WAIT);
    await expect.poll(() => tileRequests, WAIT).toBeGreaterThan(0);
    // The operator's credit, shown as typed: text, never markup.
    const attribution = map.locator('.leaflet-control-attribution');
    expect(await attribution.textContent()).toContain(credit);
    expect(await attribution.locator('b').count()).toBe(0);
    // The list stays under the map.
    expect(
      await page
        .getByRole('list', { name: /, por horário$/ })
        .getByRole('listitem')
        .count(),
    ).toBe(4);
    expect(suite.cspViolations()).toEqual([]);
  });
});
