// Saldo flex in real Chromium (issue #40, docs/credit-and-flex.md): a representative whose
// balance a manager credited sees it on Início and on /flex with the settings in one sentence
// and the entry, at 360 px, offline too (from the synced ajustes document 'flex'); a manager at
// 1280 px adjusts a balance, sees a debit beyond it refused in pt-BR and the new figure after a
// credit; a supervisor sees only their team's balances.
import { randomUUID } from 'node:crypto';
import { formatBrl } from '@campo/shared/format';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { logIn, logInAndSync, logOut, WAIT, type WebServer } from '../support/browser.ts';
import { type Representative, useBrowserSuite } from '../support/browser-suite.ts';
import { auditScreen } from '../support/screen-audit.ts';

const REP = 'rep.flex@campo.test';
const SUP = 'sup.flex@campo.test';
const MANAGER = 'gerente.flex@campo.test';
const PASSWORD = 'senha-do-flex-1';

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { login: REP, name: 'Rita Flex', role: 'representative' },
    { login: SUP, name: 'Sérgio Supervisor', role: 'supervisor' },
    { login: MANAGER, name: 'Gabriela Gerente', role: 'manager' },
  ],
});
let server: WebServer;
let page: Page;
/** A representative of the tenant outside the supervisor's team, with a balance too. */
let outsider: Representative;
const names = new Map<number, string>();

const brl = (n: number) => formatBrl(n).replace(/\u00a0/g, ' ');
const text = async (where: ReturnType<Page['getByRole']>) =>
  ((await where.textContent()) ?? '').replace(/\u00a0/g, ' ');

async function call(login: string, method: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${await suite.token(login)}`,
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify(body),
  });
}

async function audited(name: string) {
  const found = await auditScreen(page);
  expect(found.overflow, name).toEqual([]);
  expect(found.contrast, name).toEqual([]);
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
  const rules = await call(MANAGER, 'PUT', '/catalog/company/money-rules', {
    creditPolicy: 'flag',
    flexCreditSharePercent: 50,
    flexMaxBeyondCeilingPoints: 5,
  });
  expect(rules.status, await rules.clone().text()).toBe(200);
  for (const [who, valor, motivo] of [
    [rep, 150.25, 'Campanha de junho'],
    [outsider, 80, 'Bônus da outra equipe'],
  ] as const) {
    const res = await call(MANAGER, 'POST', `/flex/balances/${who.codVendedor}/adjustments`, { valor, motivo });
    expect(res.status, await res.clone().text()).toBe(201);
  }
});

describe('the representative’s flex balance, at 360 px', () => {
  it('Início shows the balance, which opens Saldo flex with the settings and the entry', async () => {
    await logInAndSync(page, server.url, REP, PASSWORD);
    const link = page.getByRole('link', { name: /^Saldo flex/ });
    await expect.poll(() => text(link), WAIT).toBe(`Saldo flex ${brl(150.25)}`);
    await link.click();
    await page.getByRole('heading', { name: 'Saldo flex', level: 1 }).waitFor(WAIT);
    await page.getByText(brl(150.25), { exact: true }).waitFor(WAIT);
    await page
      .getByText('Você ganha 50% do que vender acima da tabela; pode passar o teto em até 5 pontos usando o saldo.')
      .waitFor(WAIT);
    const entries = page.getByRole('list', { name: 'Movimentos do saldo flex' }).getByRole('listitem');
    expect(await entries.count()).toBe(1);
    expect(await text(entries.first())).toMatch(
      new RegExp(`^Ajuste: Campanha de junho \\(por ${MANAGER.replace(/\./g, '\\.')}\\).*\\+ R\\$ 150,25$`),
    );
    await audited('saldo flex do representante');
  });

  it('shows the same offline, after a reload', async () => {
    await suite.goOffline();
    await page.reload();
    await page.getByRole('heading', { name: 'Saldo flex', level: 1 }).waitFor(WAIT);
    await page.getByText(brl(150.25), { exact: true }).waitFor(WAIT);
    await page.getByText(`Ajuste: Campanha de junho (por ${MANAGER})`).waitFor(WAIT);
  });
});

describe('the manager and the supervisor, from the API', () => {
  it('a manager at 1280 px sees every balance by name, is refused a debit beyond one, and credits it', async () => {
    await logOut(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await logIn(page, server.url, MANAGER, PASSWORD);
    await page.getByRole('link', { name: 'Saldo flex dos representantes' }).click();
    await page.getByRole('heading', { name: 'Saldo flex', level: 1 }).waitFor(WAIT);
    const list = page.getByRole('list', { name: 'Saldos dos representantes' });
    const repName = names.get(suite.rep.codVendedor) ?? '';
    const card = list.getByRole('link').filter({ hasText: repName });
    await card.waitFor(WAIT);
    expect(await text(card)).toContain(brl(150.25));
    await list
      .getByRole('link')
      .filter({ hasText: names.get(outsider.codVendedor) ?? '' })
      .waitFor(WAIT);
    await audited('saldos flex do gerente');

    await card.click();
    await page.getByRole('heading', { name: `Saldo flex de ${repName}` }).waitFor(WAIT);
    await page.getByLabel('Valor do ajuste (R$)').fill('-200');
    await page.getByLabel('Motivo').fill('Estorno');
    await page.getByRole('button', { name: 'Lançar ajuste' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'não cobre o débito' });
    await expect
      .poll(() => text(refused), WAIT)
      .toBe(`O saldo flex de ${repName} é ${brl(150.25)}; não cobre o débito de ${brl(200)}.`);

    await page.getByLabel('Valor do ajuste (R$)').fill('49,75');
    await page.getByLabel('Motivo').fill('Meta batida');
    await page.getByRole('button', { name: 'Lançar ajuste' }).click();
    await page.getByText(`Ajuste lançado. O saldo de ${repName} agora é ${brl(200)}.`).waitFor(WAIT);
    const entries = page.getByRole('list', { name: `Movimentos do saldo flex de ${repName}` }).getByRole('listitem');
    await expect.poll(() => entries.count(), WAIT).toBe(2);
    expect(await text(entries.first())).toMatch(
      /^Ajuste: Meta batida \(por gerente\.flex@campo\.test\).*\+ R\$ 49,75$/,
    );
    await audited('razão flex do gerente');
    const stored = await suite.db.pool.query<{ saldo: string }>(
      'select saldo::text from app.flex_saldos where id_empresa = $1 and cod_vendedor = $2',
      [suite.rep.idEmpresa, suite.rep.codVendedor],
    );
    expect(stored.rows).toEqual([{ saldo: '200.00' }]);
  });

  it('a supervisor sees only their team’s balances', async () => {
    await logOut(page);
    await page.setViewportSize({ width: 360, height: 740 });
    await logIn(page, server.url, SUP, PASSWORD);
    await page.getByRole('link', { name: 'Saldo flex da equipe' }).click();
    const list = page.getByRole('list', { name: 'Saldos dos representantes' });
    const card = list.getByRole('link').filter({ hasText: names.get(suite.rep.codVendedor) ?? '' });
    await card.waitFor(WAIT);
    expect(await text(card)).toContain(brl(200));
    const shown = await list.getByRole('link').allTextContents();
    expect(shown.some((t) => t.includes(names.get(outsider.codVendedor) ?? '?'))).toBe(false);
    const team = suite.erp.reps.filter(
      (r) => r.idEmpresa === suite.rep.idEmpresa && r.codSupervisor === suite.rep.codSupervisor,
    );
    expect(shown.length).toBeLessThanOrEqual(team.length);
    await audited('saldos flex do supervisor');
  });
});
