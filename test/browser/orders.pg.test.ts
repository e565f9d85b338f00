// Orders in a real browser: a representative queues an order with no network at all, reloads
// the app offline and finds it still queued, then sees it reach the server as pending
// approval. An order the device allowed (a rule the manager deleted while the device was
// offline) is refused by the server with its reason per line, corrected and resent under the
// same id. An approved order prints with the company's letterhead and shares as a PDF.
import { readFileSync } from 'node:fs';
import { addDays, businessDate, type Company, type PolicyRuleCreated } from '@campo/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { png } from '../fixtures/images.ts';
import { testApp } from '../support/app.ts';
import { addToCart, logIn, sendOrder, WAIT, type WebServer, waitForServiceWorker } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { clientWithPauta, knownCeiling } from '../support/erp.ts';
import { logInAs } from '../support/session.ts';

const LOGIN = 'rep.pedidos@campo.test';
const PASSWORD = 'senha-dos-pedidos-1';
const RULE_NAME = 'Promoção do navegador';

interface Product {
  id: number;
  code: string;
  description: string;
  grupo: number;
}

let api: ReturnType<typeof testApp>;
const tokens = { manager: '', supervisor: '' };
let client: { id: number; name: string };
/** A product outside the rule's group (ceiling: the rep's 10%) and one inside it (15%). */
let plain: Product;
let promo: Product;
let ruleId: number;
let company: Company;
/** Document ids (Idempotency-Keys) of the orders the device queued, in order. */
const queued: string[] = [];

const call = (token: string, method: string, path: string, body?: unknown) =>
  api.request(`/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [{ login: LOGIN, name: 'Paula Pedidos', role: 'representative' }],
  setUp: async ({ db, rep }) => {
    const c = await clientWithPauta(db.pool, rep);
    client = { id: c.id, name: c.name };
    const products = await db.pool.query<Product>(
      `select p.id_produto as id, p.cod_produto as code, p.descricao as description, p.cod_grupo as grupo
         from app.vw_produtos p join app.vw_precos pr on pr.id_produto = p.id_produto and pr.id_pauta = $2
        where p.id_empresa = $1 and p.ativo and p.cod_grupo is not null and p.cod_produto is not null
        order by p.id_produto`,
      [rep.idEmpresa, c.idPauta],
    );
    promo = products.rows[0] as Product;
    const other = products.rows.find((p) => p.grupo !== promo.grupo);
    if (!other) throw new Error('the fixture has no two product groups on one pauta');
    plain = other;

    // A known ceiling, as in the orders API tests: 10% by default, no category ceilings, no rules.
    await knownCeiling(db.pool, rep, 10);

    api = testApp(db.pool);
    tokens.manager = await logInAs(api, db.pool, {
      login: 'ger.pedidos@campo.test',
      role: 'manager',
      idEmpresa: rep.idEmpresa,
    });
    tokens.supervisor = await logInAs(api, db.pool, {
      login: 'sup.pedidos@campo.test',
      role: 'supervisor',
      idEmpresa: rep.idEmpresa,
      codSupervisor: rep.codSupervisor,
    });
    // A manager's rule raising the promo product's group to 15%: the device learns it at its first sync.
    const today = businessDate();
    const created = await call(tokens.manager, 'POST', '/politicas/regras', {
      descricao: RULE_NAME,
      grupo: promo.grupo,
      percent: 15,
      vigenciaInicio: today,
      vigenciaFim: addDays(today, 30),
      promocao: true,
    });
    expect(created.status).toBe(201);
    ruleId = ((await created.json()) as PolicyRuleCreated).items[0]?.id as number;
    // A logo for the letterhead: printed orders and PDFs carry it, offline too.
    const logo = await api.request('/api/v1/catalog/company/logo', {
      method: 'PUT',
      headers: { authorization: `Bearer ${tokens.manager}`, 'content-type': 'image/png' },
      body: new Uint8Array(png(80, 40)),
    });
    expect(logo.status).toBeLessThan(300);
    company = (await (await call(tokens.manager, 'GET', '/catalog/company')).json()) as Company;
    expect(company.logoBase64).toMatch(/^data:image\/png;base64,/);
  },
});
const db = suite.db;
let server: WebServer;
let page: Page;

beforeAll(() => {
  ({ server, page } = suite);
});

/** The network back: the server listens again and the browser is online (goOffline's undo, mid-test). */
async function goOnline(): Promise<void> {
  await server.restart();
  await suite.context.setOffline(false);
}

const line = (p: Product) => page.getByRole('article', { name: p.description, exact: true });

async function serverOrders(): Promise<{ id: number; situa: number; descontos: number[] }[]> {
  const r = await db.pool.query(
    `select p.id, p.situa, array_agg(i.perc_desconto::float order by i.seq) as descontos
       from app.pedidos p join app.pedido_itens i on i.id_pedido = p.id
      group by p.id, p.situa order by p.id`,
  );
  return r.rows;
}

describe('orders, cart and outbox', () => {
  it('queues an order with no network, keeps it across an offline reload, and sends it when back online', async () => {
    await logIn(page, server.url, LOGIN, PASSWORD);

    // The deep link a client card opens: the client is chosen once the portfolio is on the device.
    await page.goto(`${server.url}/pedidos/novo?cliente=${client.id}`);
    await page.getByRole('heading', { name: 'Novo pedido' }).waitFor(WAIT);
    await page.locator('.chosen-client').getByText(client.name, { exact: true }).waitFor(WAIT);
    // The ceilings and the rules have arrived when the notice goes and the rule pre-fills its line.
    await expect.poll(() => page.getByText('ainda não chegaram').count(), WAIT).toBe(0);
    await addToCart(page, promo);
    await expect.poll(() => line(promo).getByLabel('Desconto (%)').inputValue(), WAIT).toBe('15');
    expect(await line(promo).textContent()).toContain(`regra "${RULE_NAME}"`);
    await line(promo)
      .getByRole('button', { name: `Remover ${promo.description}` })
      .click();

    await waitForServiceWorker(page);
    await suite.goOffline();

    await addToCart(page, plain);
    expect(await line(plain).textContent()).toContain('Teto 10% (seu teto padrão)');
    await line(plain).getByLabel('Quantidade').fill('2');
    // Above the ceiling: flagged on the line before anything is sent, and sending is refused.
    await line(plain).getByLabel('Desconto (%)').fill('12');
    await line(plain).getByText('Desconto de 12% acima do teto padrão de 10% do representante.').waitFor(WAIT);
    await page.getByRole('button', { name: 'Enviar pedido' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('Não foi possível enviar');
    await line(plain).getByLabel('Desconto (%)').fill('5');
    queued.push(await sendOrder(page, 'Na fila'));

    // Offline reload: the service worker opens the app and the order is still in the outbox.
    await page.reload();
    await page.getByRole('heading', { name: 'Pedido ainda sem número' }).waitFor(WAIT);
    await page.getByText('Na fila', { exact: true }).waitFor(WAIT);
    expect(await page.getByRole('row', { name: new RegExp(plain.description) }).textContent()).toContain('5%');
    await page.goto(`${server.url}/pedidos`);
    await page.getByText('Fila de envio: 1 na fila.').waitFor(WAIT);
    expect((await serverOrders()).length).toBe(0);

    await goOnline();
    await page.getByText('Aguardando aprovação', { exact: true }).first().waitFor(WAIT);
    await page.getByText('Fila de envio vazia').waitFor(WAIT);
    const rows = await serverOrders();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ situa: 1, descontos: [5] });
  });

  it('shows a refusal per line, and resends the corrected order under the same id', async () => {
    await page.goto(`${server.url}/pedidos/novo?cliente=${client.id}`);
    await page.locator('.chosen-client').getByText(client.name, { exact: true }).waitFor(WAIT);
    await suite.goOffline();
    // While the device is away, the manager deletes the rule it still holds.
    expect((await call(tokens.manager, 'DELETE', `/politicas/regras/${ruleId}`)).status).toBe(204);

    await addToCart(page, promo);
    await expect.poll(() => line(promo).getByLabel('Desconto (%)').inputValue(), WAIT).toBe('15');
    // A note bound for the ERP: the rep sees what its LATIN1 tables will receive before sending.
    await page.getByLabel('Observação').fill('Entregar — manhã ☀️ €');
    await page.getByText('O ERP receberá: «Entregar - manhã EUR»').waitFor(WAIT);
    const id = await sendOrder(page, null);
    queued.push(id);

    await goOnline();
    await page.getByRole('heading', { name: 'Recusado pelo servidor' }).waitFor(WAIT);
    const reasons = await page.locator('.refusal').textContent();
    expect(reasons).toContain('Linha 1');
    expect(reasons).toContain(promo.description);
    expect(reasons).toContain('teto padrão de 10% do representante');
    expect((await serverOrders()).length).toBe(1);

    await page.getByRole('link', { name: 'Corrigir' }).click();
    await page.waitForURL(`${server.url}/pedidos/${id}/corrigir`, WAIT);
    await line(promo).waitFor(WAIT);
    expect(await line(promo).textContent()).toContain('acima do teto padrão de 10%');
    await line(promo).getByLabel('Desconto (%)').fill('10');
    await page.getByRole('button', { name: 'Reenviar pedido' }).click();

    await page.waitForURL(`${server.url}/pedidos/${id}`, WAIT);
    await page.getByText('Aguardando aprovação', { exact: true }).waitFor(WAIT);
    const rows = await serverOrders();
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ situa: 1, descontos: [10] });
  });

  it('prints an approved order with the company letterhead and shares it as a PDF', async () => {
    const [first] = await serverOrders();
    expect((await call(tokens.supervisor, 'POST', `/orders/${first?.id}/approve`)).status).toBe(200);
    // A reload pulls every collection from its checkpoint: the approval arrives.
    await page.goto(`${server.url}/pedidos/${queued[0]}`);
    await page.getByText('Aprovado', { exact: true }).first().waitFor(WAIT);
    await page.getByRole('link', { name: 'Imprimir' }).click();
    await page.waitForURL(`${server.url}/pedidos/${queued[0]}/imprimir`, WAIT);
    const name = company.name ?? company.tradeName ?? '';
    expect(name).not.toBe('');
    await page.locator('.letterhead').getByText(name).waitFor(WAIT);
    await page.getByRole('heading', { name: /Pedido nº \d+/ }).waitFor(WAIT);
    const logo = page.getByRole('img', { name: `Logo de ${company.tradeName ?? name}` });
    await expect
      .poll(() => logo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), WAIT)
      .toBe(80);

    // Headless Chromium cannot share files, so the PDF is downloaded: a real PDF of the order.
    await page.getByRole('link', { name: 'Voltar ao pedido' }).click();
    const download = page.waitForEvent('download', WAIT);
    await page.getByRole('button', { name: 'Compartilhar' }).click();
    const file = await (await download).path();
    const pdf = readFileSync(file, 'latin1');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(pdf).toContain('Pedido n');
    // The logo went in as an image XObject.
    expect(pdf).toMatch(/\/Subtype \/Image/);
  });

  it('ran under the Content-Security-Policy without a violation', () => {
    expect(suite.cspViolations()).toEqual([]);
  });
});
