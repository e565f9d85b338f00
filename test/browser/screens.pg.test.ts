// Every screen of every role in real Chromium, judged the same way: WCAG AA contrast on
// every text (axe-core's color-contrast rule on the rendered page) and no sideways scroll.
// The representative is audited on a 360 px phone, the supervisor, manager and admin on a
// 1280 px desk and on the phone as well. The data is made through the API first (an order
// awaiting approval, a ticket the company answered, a funnel card, a promotion), so the
// screens show real content, not their empty states.
import { randomUUID } from 'node:crypto';
import { businessDate } from '@campo/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addToCart,
  logOut as leave,
  logInAndSync,
  logIn as logInAt,
  WAIT,
  type WebServer,
} from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { orderableSale } from '../support/erp.ts';
import { auditScreen } from '../support/screen-audit.ts';

const PASSWORD = 'senha-das-telas-1';
const REP = 'rep.telas@campo.test';
const SUP = 'sup.telas@campo.test';
const MANAGER = 'ger.telas@campo.test';
const ADMIN = 'admin.telas@campo.test';
const PHONE = { width: 360, height: 740 };
const DESK = { width: 1280, height: 800 };

let sale: { idCliente: number; idProduto: number; code: string; description: string; grupo: number };
let codSupervisor = 0;

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { login: REP, name: 'Rita Telas', role: 'representative' },
    { login: SUP, name: 'Sérgio Telas', role: 'supervisor' },
    { login: MANAGER, name: 'Gabriela Telas', role: 'manager' },
    { login: ADMIN, name: 'Ana Telas', role: 'admin' },
  ],
  setUp: async ({ db, rep }) => {
    codSupervisor = rep.codSupervisor;
    sale = await orderableSale(db.pool, rep);
  },
});
let server: WebServer;
let page: Page;

async function call<T>(token: string, method: string, path: string, body?: unknown, key?: string): Promise<T> {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  ({ server, page } = suite);
  const repToken = await suite.token(REP);
  const managerToken = await suite.token(MANAGER);
  await call(managerToken, 'POST', '/politicas/regras', {
    descricao: 'Promoção de telas',
    grupo: sale.grupo,
    percent: 12.5,
    vigenciaInicio: businessDate(),
    vigenciaFim: '9999-12-31',
    promocao: true,
  });
  const order = await call<{ id: number }>(
    repToken,
    'POST',
    '/orders',
    { idCliente: sale.idCliente, itens: [{ idProduto: sale.idProduto, quantidade: 4, descontoPercent: 0 }] },
    randomUUID(),
  );
  const ticket = await call<{ id: string }>(repToken, 'POST', '/chamados', {
    idPedido: order.id,
    assunto: 'Entrega atrasada',
    mensagem: 'O cliente ainda não recebeu.',
  });
  await call(managerToken, 'POST', `/ger/chamados/${ticket.id}/mensagens`, {
    texto: 'Já falamos com a transportadora.',
  });
  await call(repToken, 'POST', '/funil', { id: randomUUID(), nomeProspect: 'Mercearia das Telas', valor: 1500 });
});

/** Waits for the screen's title and for nothing in it to be loading any more. */
async function settle(heading?: string | RegExp): Promise<void> {
  const h1 = page.locator('main h1, .login h1').first();
  await h1.waitFor(WAIT);
  if (heading) await page.getByRole('heading', { level: 1, name: heading }).waitFor(WAIT);
  await expect.poll(() => page.locator('[aria-busy="true"]').count(), WAIT).toBe(0);
}

const problems: string[] = [];

async function audit(name: string): Promise<void> {
  const found = await auditScreen(page);
  const size = page.viewportSize()?.width ?? 0;
  for (const c of found.contrast) problems.push(`${name} @${size}: contrast ${c}`);
  for (const o of found.overflow) problems.push(`${name} @${size}: overflow ${o}`);
  for (const t of found.truncated) problems.push(`${name} @${size}: cut by an ellipsis ${t}`);
}

/** Opens a path in the app and audits it at each width. */
async function visit(
  path: string,
  name: string,
  widths: { width: number; height: number }[],
  heading?: string | RegExp,
) {
  for (const viewport of widths) {
    await page.setViewportSize(viewport);
    await page.goto(`${server.url}${path}`);
    await settle(heading);
    await audit(name);
  }
}

/** Follows the first link of a list to its screen, and returns that screen's path. */
async function firstLinkPath(listPath: string, link: string): Promise<string> {
  await page.goto(`${server.url}${listPath}`);
  await settle();
  const a = page.locator(link).first();
  await a.waitFor(WAIT);
  return (await a.getAttribute('href')) ?? '';
}

async function logOut() {
  await page.goto(`${server.url}/`);
  await leave(page);
}

const logIn = (login: string, home?: string) => logInAt(page, server.url, login, PASSWORD, home);

describe('every screen is readable and fits the phone', () => {
  it('audits the login screen', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/login`);
    await settle();
    await audit('/login');
    await page.setViewportSize(DESK);
    await audit('/login');
  });

  it("audits the representative's screens on a 360 px phone", async () => {
    await page.setViewportSize(PHONE);
    await logInAndSync(page, server.url, REP, PASSWORD);
    await expect.poll(() => page.getByText('aguardando envio').count(), WAIT).toBe(0);
    const order = await firstLinkPath('/pedidos', '.order-card a[href^="/pedidos/"]');
    const card = await firstLinkPath('/funil', 'main article a[href^="/funil/"]');
    const ticket = await firstLinkPath('/sac', 'a.ticket-link');
    const screens: [string, string][] = [
      ['/', 'Início'],
      ['/clientes', 'Clientes'],
      [`/clientes/${sale.idCliente}`, 'cliente'],
      ['/clientes/novo', 'Novo cliente'],
      ['/catalogo', 'Catálogo'],
      [`/catalogo/${sale.idProduto}`, 'produto'],
      ['/pedidos', 'Pedidos'],
      [order, 'pedido'],
      [`${order}/imprimir`, 'impressão'],
      ['/funil', 'Funil'],
      ['/funil/nova', 'Nova oportunidade'],
      [card, 'oportunidade'],
      ['/sac', 'SAC'],
      ['/sac/novo', 'Novo chamado'],
      [ticket, 'chamado'],
      ['/sincronizacao', 'Sincronização'],
    ];
    for (const [path, name] of screens) await visit(path, `${name} ${path}`, [PHONE]);
    // The company's answer must be on the thread being judged.
    await page.goto(`${server.url}${ticket}`);
    await page.getByText('Já falamos com a transportadora.').waitFor(WAIT);
    await audit('chamado com resposta');
    // The cart with a line in it, and its confirmation.
    await page.goto(`${server.url}/pedidos/novo?cliente=${sale.idCliente}`);
    await page.getByRole('heading', { name: 'Novo pedido' }).waitFor(WAIT);
    await addToCart(page, sale);
    await audit('carrinho com uma linha');
    await logOut();
  }, 240_000);

  it("audits the supervisor's screens at 1280 px and on the phone", async () => {
    await page.setViewportSize(DESK);
    await logIn(SUP);
    const review = await firstLinkPath('/aprovacoes', 'a.mg-card[href^="/aprovacoes/"]');
    for (const [path, name] of [
      ['/', 'Início'],
      ['/aprovacoes', 'Aprovações'],
      [review, 'revisão'],
      ['/equipe', 'Equipe'],
      ['/visitas', 'Visitas'],
      ['/visitas/roteiros', 'Roteiros'],
      ['/visitas/posicoes', 'Posições a confirmar'],
      ['/sincronizacao', 'Sincronização'],
    ] as const) {
      await visit(path, `${name} ${path}`, [DESK, PHONE]);
    }
    await page.setViewportSize(DESK);
    await logOut();
  }, 180_000);

  it("audits the manager's screens at 1280 px and on the phone", async () => {
    await logIn(MANAGER);
    await page.goto(`${server.url}/sac`);
    await settle();
    // The inbox opens on open tickets; the one answered is under Todas.
    await page.getByLabel('Situação').selectOption('');
    const link = page.locator('a.mg-card[href^="/sac/"]').first();
    await link.waitFor(WAIT);
    const ticket = (await link.getAttribute('href')) ?? '';
    for (const [path, name] of [
      ['/', 'Início'],
      ['/regras', 'Regras'],
      ['/regras/nova', 'Nova regra'],
      ['/metas', 'Metas'],
      [`/metas/equipe/${codSupervisor}`, 'Equipe'],
      ['/empresa', 'Empresa'],
      ['/visitas', 'Visitas'],
      ['/visitas/motivos', 'Motivos de não venda'],
      ['/sac', 'SAC'],
      [ticket, 'chamado'],
      ['/sincronizacao', 'Sincronização'],
    ] as const) {
      await visit(path, `${name} ${path}`, [DESK, PHONE]);
    }
    await page.setViewportSize(DESK);
    await logOut();
  }, 180_000);

  it("audits the admin's screen at 1280 px and on the phone", async () => {
    // The admin has no Início: it lands on Usuários.
    await logIn(ADMIN, 'Usuários');
    await visit('/usuarios', 'Usuários /usuarios', [DESK, PHONE]);
  }, 120_000);

  it('found no text below WCAG AA contrast and no screen wider than the viewport', () => {
    expect(problems).toEqual([]);
  });
});
