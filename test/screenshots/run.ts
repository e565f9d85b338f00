// `pnpm screenshots [--url http://localhost:8080] [--only visitas,manager]`: the main screens of
// a running demo (`pnpm demo`, whose logins it uses) in Debian's Chromium, a representative on a
// 360 px phone and a supervisor and a manager at 1280 px, written as PNGs to docs/screenshots/
// for docs/pwa.md and docs/visits.md. Run it again after changing a screen; the pictures are of
// the demo data as it stands. `--only` (or SCREENSHOTS_ONLY) runs some of the walks (STEPS
// below), e.g. after changing one screen; a new part of the app adds its walk there.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ClientPage, OrderDetail, OrderSummary, RouteDay, Session, VisitSummary } from '@campo/shared';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../server/src/demo/users.ts';
import { launchBrowser } from '../support/chromium.ts';

const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const WAIT = { timeout: 60_000 };
const PHONE = { width: 360, height: 740 };
const DESK = { width: 1280, height: 800 };

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:8080' },
    only: { type: 'string', default: process.env.SCREENSHOTS_ONLY ?? '' },
  },
});
const base = (values.url ?? '').replace(/\/$/, '');

async function settle(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor(WAIT);
  await page.waitForFunction(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document;
    return doc.querySelectorAll('[aria-busy="true"]').length === 0;
  }, WAIT);
  // Charts draw after their data; fonts and images after layout.
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  await settle(page);
  const file = join(OUT, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  process.stdout.write(`${file}\n`);
}

async function logIn(page: Page, login: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Senha').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('heading', { name: 'Início' }).waitFor(WAIT);
}

/** Reads the API as `login` does, to find the demo's examples (an order invoiced in part, a client owing). */
async function api<T>(login: string, path: string): Promise<T> {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password: DEMO_PASSWORD }),
  });
  const { token } = (await res.json()) as Session;
  const answer = await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!answer.ok) throw new Error(`GET ${path} as ${login}: ${answer.status}`);
  return (await answer.json()) as T;
}

/** The demo's order invoiced in part (demo/orders.ts), as `login` sees it. */
async function partlyInvoicedOrder(login: string): Promise<OrderDetail> {
  const { items } = await api<{ items: OrderSummary[] }>(login, '/orders?status=approved&pageSize=50');
  for (const o of items) {
    const order = await api<OrderDetail>(login, `/orders/${o.id}`);
    if (order.invoices.length > 0) return order;
  }
  throw new Error(`no order invoiced in part for ${login}: run \`pnpm demo --reset\``);
}

/** Brings a section to the top of the screen: a full-page picture would draw the tab bar over its middle. */
async function scrollTo(page: Page, heading: string | Locator): Promise<void> {
  const h = typeof heading === 'string' ? page.getByRole('heading', { name: heading }) : heading;
  await h.waitFor(WAIT);
  await h.evaluate((el) => el.scrollIntoView({ block: 'start' }));
}

/**
 * The phone's clock in São Paulo, where the demo's field day happens: Chromium here runs on the
 * machine's zone (UTC on a server), and the app shows the device's local time.
 */
async function saoPauloClock(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'America/Sao_Paulo' });
}

async function open(page: Page, path: string): Promise<void> {
  await page.goto(`${base}${path}`);
}

async function representative(page: Page): Promise<void> {
  await page.setViewportSize(PHONE);
  await logIn(page, 'rep1@demo.campo');
  await page
    .getByRole('status', { name: 'Sincronização' })
    .filter({ hasText: /Sincronizado/ })
    .waitFor({ timeout: 180_000 });
  await shoot(page, 'rep-360-inicio');
  await open(page, '/clientes');
  await shoot(page, 'rep-360-clientes');
  await open(page, '/catalogo');
  await page.locator('.product-list .product-photo[data-photo="loaded"]').first().waitFor(WAIT);
  await shoot(page, 'rep-360-catalogo');
  await page.locator('.product-list a').first().click(WAIT);
  await page.locator('.product-photo[data-photo="loaded"]').first().waitFor(WAIT);
  await shoot(page, 'rep-360-produto');
  await open(page, '/catalogo');
  await open(page, '/pedidos');
  await shoot(page, 'rep-360-pedidos');
  // A cart with two products, the total stuck above the tab bar: the first client that can
  // receive orders, then the first two products of its mix.
  await open(page, '/pedidos/novo');
  await page.getByRole('heading', { name: 'Novo pedido' }).waitFor(WAIT);
  await page.getByLabel('Buscar cliente').fill('a');
  await page.locator('.pick-list button:not([disabled])').first().click(WAIT);
  // The client's mix, suggested (demo clients have a year of ERP orders).
  await scrollTo(page, page.getByRole('list', { name: 'Sugestão' }));
  await shoot(page, 'rep-360-sugestao');
  // Two of them into the cart, as a representative does on a visit.
  for (let i = 0; i < 2; i++) {
    await page.getByRole('list', { name: 'Sugestão' }).getByRole('button', { name: 'Adicionar' }).first().click(WAIT);
  }
  await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 400));
  await shoot(page, 'rep-360-carrinho');
  // Sent, so the supervisor's queue below has an order to show with its credit.
  await page.getByRole('button', { name: 'Enviar pedido' }).click();
  await page.waitForURL(/\/pedidos\/[0-9a-f-]{36}$/, WAIT);
  await open(page, '/flex');
  await shoot(page, 'rep-360-saldo-flex');
  // After approval: the order invoiced in part, and a client's open titles.
  const part = await partlyInvoicedOrder('rep1@demo.campo');
  await open(page, '/pedidos');
  await page.getByRole('link', { name: `Pedido nº ${part.numPedSar}`, exact: true }).click(WAIT);
  await scrollTo(page, 'Notas fiscais');
  await shoot(page, 'rep-360-pedido-notas');
  const owing = await api<ClientPage>('rep1@demo.campo', '/clients?financialStatus=overdue&pageSize=1');
  const debtor = owing.items[0];
  if (debtor) {
    await open(page, `/clientes/${debtor.id}`);
    await scrollTo(page, 'Títulos em aberto');
    await shoot(page, 'rep-360-cliente-titulos');
    await scrollTo(page, 'Mix do cliente');
    await shoot(page, 'rep-360-cliente-mix');
  }
  await open(page, '/funil');
  await shoot(page, 'rep-360-funil');
  await open(page, '/sac');
  await shoot(page, 'rep-360-sac');
  await open(page, '/sincronizacao');
  // Every thumbnail kept for offline use: the demo's 2,000 photos take a minute or so.
  await page.getByRole('button', { name: 'Baixar fotos para usar offline' }).click(WAIT);
  await page.getByText('Fotos prontas para usar offline.', { exact: false }).waitFor({ timeout: 600_000 });
  await shoot(page, 'rep-360-sincronizacao', true);
  await page.getByRole('button', { name: 'Sair' }).click();
  await page.waitForURL(/\/login$/, WAIT);
}

async function supervisor(page: Page): Promise<void> {
  await page.setViewportSize(DESK);
  await logIn(page, 'sup1@demo.campo');
  await shoot(page, 'supervisor-1280-inicio');
  await open(page, '/aprovacoes');
  await shoot(page, 'supervisor-1280-aprovacoes');
  const part = await partlyInvoicedOrder('sup1@demo.campo');
  await open(page, `/aprovacoes/${part.id}`);
  await page.getByRole('heading', { name: 'Notas fiscais' }).waitFor(WAIT);
  await shoot(page, 'supervisor-1280-pedido-notas', true);
  await open(page, '/equipe');
  await page.locator('canvas').first().waitFor(WAIT);
  await shoot(page, 'supervisor-1280-equipe');
  await page.getByRole('button', { name: 'Sair' }).click();
  await page.waitForURL(/\/login$/, WAIT);
}

async function manager(page: Page): Promise<void> {
  await page.setViewportSize(DESK);
  await logIn(page, 'gerente1@demo.campo');
  await open(page, '/regras');
  await shoot(page, 'gerente-1280-regras');
  await open(page, '/metas');
  await shoot(page, 'gerente-1280-metas');
  await page.getByRole('button', { name: 'Sair' }).click();
  await page.waitForURL(/\/login$/, WAIT);
}

/**
 * The demo's field day (server/src/demo/visits.ts) as a supervisor sees it: Início's route
 * cards, the day's table, one representative's visits, the plans and the positions to confirm,
 * at 1280 px and the day at 360 px; then the manager's reasons.
 */
async function visits(page: Page): Promise<void> {
  await page.setViewportSize(DESK);
  await logIn(page, 'sup1@demo.campo');
  await scrollTo(page, 'Roteiro de hoje');
  await page.getByRole('list', { name: 'Roteiro de hoje por representante' }).waitFor(WAIT);
  await shoot(page, 'supervisor-1280-inicio-roteiro');
  await open(page, '/visitas');
  await page.locator('main table').first().waitFor(WAIT);
  await shoot(page, 'supervisor-1280-visitas-dia');
  // The demo's representative with a field day: the one with the most visits today.
  const summary = await api<VisitSummary>('sup1@demo.campo', '/visits/summary');
  const busiest = [...summary.items].sort((a, b) => b.visitas - a.visitas)[0];
  if (!busiest?.visitas) throw new Error('the demo has no visits today: run `pnpm demo --reset`');
  await open(page, `/visitas?rep=${busiest.codVendedor}`);
  await page.locator('.visit-list img').first().waitFor(WAIT);
  await page.waitForFunction(() => {
    const doc = (globalThis as unknown as { document: { querySelector(s: string): { complete: boolean } | null } })
      .document;
    return doc.querySelector('.visit-list img')?.complete === true;
  }, WAIT);
  await scrollTo(page, page.getByRole('heading', { name: /^Visitas de / }));
  await shoot(page, 'supervisor-1280-visitas-representante');
  await open(page, `/visitas/roteiros?rep=${busiest.codVendedor}`);
  await page.getByRole('list', { name: 'Dias de visita dos clientes' }).waitFor(WAIT);
  await shoot(page, 'supervisor-1280-visitas-roteiros');
  await open(page, '/visitas/posicoes');
  await page.getByRole('list', { name: 'Posições a confirmar' }).waitFor(WAIT);
  await shoot(page, 'supervisor-1280-visitas-posicoes');
  await page.setViewportSize(PHONE);
  await open(page, '/visitas');
  // On a phone the day picker fills the first screen: the table is what the picture is for.
  await scrollTo(page, page.locator('#visitas-dia-legenda'));
  await shoot(page, 'supervisor-360-visitas-dia');
  await page.setViewportSize(DESK);
  await page.getByRole('button', { name: 'Sair' }).click();
  await page.waitForURL(/\/login$/, WAIT);
  await logIn(page, 'gerente1@demo.campo');
  await open(page, '/visitas/motivos');
  await page.getByRole('list', { name: 'Motivos de não venda' }).waitFor(WAIT);
  await shoot(page, 'gerente-1280-visitas-motivos');
  await page.getByRole('button', { name: 'Sair' }).click();
  await page.waitForURL(/\/login$/, WAIT);
  await representativeVisits();
}

/**
 * The representative's side of the field day at 360 px: Início's route, the seeded open visit,
 * the reason sheet, a check-in where the client is, and the visits waiting on the sync screen.
 * It runs in a browser of its own that loses the API before the first write and is thrown away:
 * what the phone writes never reaches the server, so the demo's day stays as seeded for the
 * supervisor's pictures and for the next run.
 */
async function representativeVisits(): Promise<void> {
  const login = 'rep1@demo.campo';
  const route = await api<RouteDay>(login, '/visits/route');
  const open = [...route.clientes, ...route.extras].find((c) => c.estado === 'em_visita');
  const next = route.clientes.find((c) => c.estado === 'a_visitar' && c.posicao);
  if (!open?.nome || !next?.nome || !next.posicao) {
    throw new Error(`no open visit or client to visit on ${login}'s route: run \`pnpm demo --reset\``);
  }
  const phone = await launchBrowser();
  try {
    const { page, context } = phone;
    await saoPauloClock(page);
    await page.setViewportSize(PHONE);
    await logIn(page, login);
    await page
      .getByRole('status', { name: 'Sincronização' })
      .filter({ hasText: /Sincronizado/ })
      .waitFor({ timeout: 180_000 });
    const card = page.getByRole('article', { name: 'Roteiro de hoje' });
    await card.getByText(/^Roteiro de hoje: \d+ de \d+ visitados/).waitFor(WAIT);
    await scrollTo(page, 'Roteiro de hoje');
    await shoot(page, 'rep-360-inicio-roteiro');
    await scrollTo(page, 'Visitados fora do roteiro');
    await shoot(page, 'rep-360-inicio-roteiro-extras');
    const visit = page.getByRole('region', { name: 'Visita' });
    await card.getByRole('link', { name: open.nome, exact: true }).click(WAIT);
    await visit.getByText(/Em visita desde \d\d:\d\d/).waitFor(WAIT);
    await shoot(page, 'rep-360-visita-aberta');
    // No signal from here: every call to the API fails, as it does where a phone has none (and
    // navigator.onLine stays true, so RxDB keeps trying, and the sync screen lists each visit).
    await context.route(`${base}/api/**`, (route) => route.abort('internetdisconnected'));
    await visit.getByRole('button', { name: 'Saí' }).click();
    const sheet = page.getByRole('dialog', { name: `Saída de ${open.nome}` });
    await sheet.getByRole('radio', { name: 'Outro' }).check();
    await sheet
      .getByLabel('Observação', { exact: true })
      .fill('Comprador pediu para voltar na sexta, depois do inventário.');
    await shoot(page, 'rep-360-visita-motivo');
    await sheet
      .getByRole('radio', { name: /\(pede foto\)$/ })
      .first()
      .check();
    await sheet.getByLabel('Foto', { exact: true }).waitFor(WAIT);
    await shoot(page, 'rep-360-visita-motivo-foto');
    await sheet.getByRole('radio', { name: 'Outro' }).check();
    await sheet.getByRole('button', { name: 'Confirmar saída' }).click();
    await visit.getByText('Saída registrada.').waitFor(WAIT);
    // "Cheguei" at the next client of the route, 40 m north of where the ERP has it.
    await context.grantPermissions(['geolocation'], { origin: base });
    await context.setGeolocation({
      latitude: next.posicao.latitude + 40 / 111_320,
      longitude: next.posicao.longitude,
      accuracy: 12,
    });
    await page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Início' }).click();
    await card.getByRole('link', { name: next.nome, exact: true }).click(WAIT);
    await visit.getByRole('button', { name: 'Cheguei' }).waitFor(WAIT);
    await shoot(page, 'rep-360-cliente-cheguei');
    await visit.getByRole('button', { name: 'Cheguei' }).click();
    await visit.getByText(/Em visita desde \d\d:\d\d · a \d+ m do cliente/).waitFor(WAIT);
    await shoot(page, 'rep-360-visita-chegada');
    // RxDB retries the push that failed (the check-out) alone; "Sincronizar agora" starts it
    // again with everything waiting, so the screen lists both visits.
    await page.getByRole('link', { name: 'Sincronização', exact: true }).click();
    await page.getByRole('button', { name: 'Sincronizar agora' }).click(WAIT);
    await page
      .getByRole('status', { name: 'Sincronização' })
      .filter({ hasText: 'Aguardando envio: 2 visitas' })
      .waitFor(WAIT);
    await scrollTo(page, 'Aguardando envio');
    await shoot(page, 'rep-360-sincronizacao-visitas');
  } finally {
    await phone.close();
  }
}

/** The walks, in order; `--only` names some of them. */
const STEPS: Record<string, (page: Page) => Promise<void>> = { representative, supervisor, manager, visits };

const only = (values.only ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = only.filter((name) => !Object.hasOwn(STEPS, name));
if (unknown.length > 0) throw new Error(`unknown step(s) ${unknown.join(', ')}: use ${Object.keys(STEPS).join(', ')}`);

mkdirSync(OUT, { recursive: true });
const browser = await launchBrowser();
await saoPauloClock(browser.page);
try {
  const health = await fetch(`${base}/api/v1/health`).catch(() => null);
  if (!health) throw new Error(`no Campo at ${base}: start \`pnpm demo\` first (or pass --url)`);
  for (const [name, step] of Object.entries(STEPS)) {
    if (only.length === 0 || only.includes(name)) await step(browser.page);
  }
} finally {
  await browser.close();
}
