// The supervisor's and manager's desk (1280 px) in real Chromium (issue #19): a supervisor's
// Início shows the team at a glance; a manager edits a rule in place and duplicates one; the
// month picker is two pt-BR selects (no `type="month"`, which desktop Safari lacks); a target
// typed with the thousands separator is saved and shown back with it; team cards name every
// figure and say "sem meta" where there is none.
import { randomUUID } from 'node:crypto';
import { businessDate } from '@campo/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { logIn as logInAt, logOut, WAIT, type WebServer } from '../support/browser.ts';
import { type Representative, useBrowserSuite } from '../support/browser-suite.ts';
import { orderableClient } from '../support/erp.ts';

const PASSWORD = 'senha-da-mesa-19';
const REP = 'rep.mesa@campo.test';
const SUP = 'sup.mesa@campo.test';
const MANAGER = 'ger.mesa@campo.test';
const RULE = 'Condição de mesa';

let sale: { idCliente: number; idProduto: number };
const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { login: REP, name: 'Rui Mesa', role: 'representative' },
    { login: SUP, name: 'Sara Mesa', role: 'supervisor' },
    { login: MANAGER, name: 'Gilda Mesa', role: 'manager' },
  ],
  setUp: async ({ db, rep }) => {
    sale = await orderableClient(db.pool, rep);
  },
});
const db = suite.db;
let server: WebServer;
let page: Page;
let rep: Representative;
let ruleId = 0;

beforeAll(async () => {
  ({ server, page, rep } = suite);
  const repToken = await suite.token(REP);
  const order = await fetch(`${server.url}/api/v1/orders`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${repToken}`,
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({
      idCliente: sale.idCliente,
      itens: [{ idProduto: sale.idProduto, quantidade: 3, descontoPercent: 0 }],
    }),
  });
  expect(order.status, await order.clone().text()).toBe(201);
  const rule = await fetch(`${server.url}/api/v1/politicas/regras`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await suite.token(MANAGER)}` },
    body: JSON.stringify({
      descricao: RULE,
      percent: 6,
      vigenciaInicio: businessDate(),
      vigenciaFim: '2099-12-31',
      promocao: false,
    }),
  });
  expect(rule.status, await rule.clone().text()).toBe(201);
  ruleId = ((await rule.json()) as { items: { id: number }[] }).items[0]?.id ?? 0;
  // No target this month for anyone: every team starts "sem meta".
  await db.pool.query('delete from app.metas_representante');
  // The desk: a supervisor's or manager's screen, not the phone.
  await page.setViewportSize({ width: 1280, height: 800 });
});

const logIn = (login: string) => logInAt(page, server.url, login, PASSWORD);

describe("the supervisor's Início", () => {
  it('shows the team at a glance: approvals waiting, today’s positivation, the month against the target', async () => {
    await logIn(SUP);
    const glance = page.getByRole('region', { name: 'Sua equipe hoje' });
    const approvals = glance.getByRole('link', { name: /Aguardando aprovação/ });
    await expect.poll(() => approvals.textContent(), WAIT).toBe('Aguardando aprovação1pedido para revisar');
    await expect
      .poll(() => glance.getByRole('link', { name: /Positivação hoje/ }).textContent(), WAIT)
      .toMatch(/^Positivação hoje\d+clientes/);
    await expect
      .poll(() => glance.getByRole('link', { name: /Faturamento do mês/ }).textContent(), WAIT)
      .toMatch(/^Faturamento do mêsR\$\s[\d.,]+sem meta$/);
    await approvals.click();
    await page.getByRole('heading', { name: 'Aprovações' }).waitFor(WAIT);
    await logOut(page);
  });
});

describe("the manager's desk", () => {
  it('edits a rule in place', async () => {
    await logIn(MANAGER);
    await page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Regras' }).click();
    await page.getByRole('link', { name: `Editar a regra ${RULE}` }).click();
    await page.getByRole('heading', { name: 'Editar regra de desconto' }).waitFor(WAIT);
    const percent = page.getByLabel('Percentual de desconto');
    expect(await percent.inputValue()).toBe('6');
    await percent.fill('12,5');
    await page.getByRole('button', { name: 'Salvar regra' }).click();
    await page.getByRole('heading', { name: 'Regra salva' }).waitFor(WAIT);
    const { rows } = await db.pool.query<{ id: number; percent: string }>(
      'select id, percent from app.regras_desconto where descricao = $1',
      [RULE],
    );
    expect(rows.map((r) => [r.id, Number(r.percent)])).toEqual([[ruleId, 12.5]]);
  });

  it('duplicates a rule into a new one', async () => {
    await page.getByRole('link', { name: 'Ver regras' }).click();
    await page.getByRole('link', { name: `Duplicar a regra ${RULE}` }).click();
    await page.getByRole('heading', { name: 'Nova regra de desconto' }).waitFor(WAIT);
    expect(await page.getByLabel('Descrição').inputValue()).toBe(`${RULE} (cópia)`);
    expect(await page.getByLabel('Percentual de desconto').inputValue()).toBe('12,5');
    await page.getByRole('button', { name: 'Criar regra' }).click();
    await page.getByRole('heading', { name: 'Regra criada' }).waitFor(WAIT);
    const { rows } = await db.pool.query<{ descricao: string; percent: string }>(
      'select descricao, percent from app.regras_desconto where descricao like $1 order by id',
      [`${RULE}%`],
    );
    expect(rows.map((r) => [r.descricao, Number(r.percent)])).toEqual([
      [RULE, 12.5],
      [`${RULE} (cópia)`, 12.5],
    ]);
  });

  it('labels every figure of the team cards and says "sem meta" where there is none', async () => {
    await page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Metas' }).click();
    const cards = page.getByRole('list', { name: 'Equipes por supervisor' });
    const card = cards.getByRole('listitem').first();
    await card.waitFor(WAIT);
    const terms = await card.locator('dt').allTextContents();
    expect(terms).toEqual(['Faturamento', 'Meta', 'Positivação', 'Representantes ativos']);
    expect(await card.locator('dt:text-is("Meta") + dd').textContent()).toBe('sem meta');
    expect(await cards.textContent()).not.toMatch(/Meta\s*R\$\s*0,00/);
  });

  it('picks the month with pt-BR selects, no type="month"', async () => {
    expect(await page.locator('input[type="month"]').count()).toBe(0);
    const month = page.getByLabel('Mês do ano');
    const [y, m] = businessDate().split('-');
    const names = await month.locator('option').allTextContents();
    expect(names.slice(0, 3)).toEqual(['janeiro', 'fevereiro', 'março']);
    expect(await month.inputValue()).toBe(String(Number(m)));
    await page.getByLabel('Ano', { exact: true }).selectOption(String(Number(y) - 1));
    await page.waitForURL(new RegExp(`/metas\\?mes=${Number(y) - 1}-${m}$`), WAIT);
    await page.getByLabel('Ano', { exact: true }).selectOption(String(y));
    await page.waitForURL(new RegExp(`/metas\\?mes=${y}-${m}$`), WAIT);
  });

  it('saves a target typed with the thousands separator and shows it back with it', async () => {
    const field = page.locator(`#meta-${rep.codVendedor}`);
    await field.waitFor(WAIT);
    await field.fill('15.000');
    await page.getByRole('button', { name: /Salvar metas/ }).click();
    await page.getByRole('status').filter({ hasText: '1 meta salva.' }).waitFor(WAIT);
    const { rows } = await db.pool.query<{ v: string }>(
      'select valor_meta as v from app.metas_representante where cod_vendedor = $1 and id_empresa = $2',
      [rep.codVendedor, rep.idEmpresa],
    );
    expect(rows.map((r) => Number(r.v))).toEqual([15000]);
    await expect.poll(() => field.inputValue(), WAIT).toBe('15.000,00');
  });
});
