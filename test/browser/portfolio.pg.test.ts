// The representative's portfolio and catalog in a real browser, read from the device's store
// after the first sync: search a client, open it, a client blocked in the ERP offers no order,
// and the catalog shows a product's price on the client's pauta with the badge of a rule a
// manager created through the API.
import { businessDate } from '@campo/shared/dates';
import { formatCnpj, formatCpf } from '@campo/shared/documents';
import { formatBrl } from '@campo/shared/format';
import { foldSearchText } from '@campo/shared/search';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { logIn, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';

const LOGIN = 'rep.carteira@campo.test';
const PASSWORD = 'senha-da-carteira-1';
const MANAGER = 'gerente.carteira@campo.test';
const RULE = 'Promoção de teste do navegador';
const WAIT = { timeout: 30_000 };

interface ClientRow {
  id: number;
  name: string;
  tradeName: string | null;
  document: string;
  idPauta: number;
}

let searched: ClientRow;
let blocked: ClientRow;
let product: { id: number; code: string; description: string; price: number };

const money = (n: number) => formatBrl(n).replace(/\s/g, ' ');
const spaces = (s: string | null) => (s ?? '').replace(/\s/g, ' ');

let promoGroup = 0;
const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { login: LOGIN, name: 'Carla Carteira', role: 'representative' },
    { login: MANAGER, name: 'Gil Gerente', role: 'manager' },
  ],
  setUp: async ({ db, rep }) => {
    const clients = await db.pool.query<ClientRow>(
      `select id_cliente as id, razao_social as name, nome_fantasia as "tradeName", cnpj_cpf as document,
              id_pauta as "idPauta"
         from app.vw_clientes
        where id_empresa = $1 and cod_vendedor = $2 and status_financeiro <> 'blocked' and id_pauta is not null
        order by id_cliente limit 2`,
      [rep.idEmpresa, rep.codVendedor],
    );
    const [a, b] = clients.rows;
    if (!a || !b) throw new Error('the fixture has too few clients for the representative');
    searched = a;
    blocked = b;
    // The ERP's credit department blocks a client by hand (docs: vw_clientes, status_financeiro).
    await db.pool.query(`update corrent set situacao = 'B' where id_corrent = $1`, [blocked.id]);
    const status = await db.pool.query<{ s: string }>(
      'select status_financeiro as s from app.vw_clientes where id_cliente = $1',
      [blocked.id],
    );
    expect(status.rows[0]?.s).toBe('blocked');

    const products = await db.pool.query<{
      id: number;
      code: string;
      description: string;
      price: string;
      grupo: number;
    }>(
      `select p.id_produto as id, p.cod_produto as code, p.descricao as description, pr.preco as price,
              p.cod_grupo as grupo
         from app.vw_produtos p
         join app.vw_precos pr on pr.id_produto = p.id_produto and pr.id_filial = p.id_filial and pr.id_pauta = $2
        where p.id_empresa = $1 and p.ativo and p.cod_grupo is not null and p.cod_produto is not null
        order by p.id_produto limit 1`,
      [rep.idEmpresa, searched.idPauta],
    );
    const p = products.rows[0];
    if (!p) throw new Error('the fixture has no priced product');
    product = { id: p.id, code: p.code, description: p.description, price: Number(p.price) };
    promoGroup = p.grupo;
  },
});
let server: WebServer;
let page: Page;

beforeAll(async () => {
  ({ server, page } = suite);
  // A promotion for the product's group, made the way a manager makes one.
  const login = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: MANAGER, password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const rule = await fetch(`${server.url}/api/v1/politicas/regras`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      descricao: RULE,
      grupo: promoGroup,
      percent: 37.5,
      vigenciaInicio: businessDate(),
      vigenciaFim: '9999-12-31',
      promocao: true,
    }),
  });
  expect(rule.status, await rule.clone().text()).toBe(201);
});

const clientList = () => page.getByRole('list', { name: 'Clientes da carteira' });
const titleOf = (c: ClientRow) => c.tradeName || c.name;
const masked = (doc: string) => (doc.length === 11 ? formatCpf(doc) : formatCnpj(doc));

describe('portfolio and catalog', () => {
  it('shows the portfolio from the device once the first sync is done', async () => {
    await logIn(page, server.url, LOGIN, PASSWORD);
    await page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Clientes' }).click();
    await page.waitForURL(`${server.url}/clientes`);
    await clientList().getByRole('link').first().waitFor(WAIT);
  });

  it('finds a client by its masked document and by its name without accents', async () => {
    const search = page.getByRole('searchbox', { name: 'Buscar cliente' });
    await search.fill(masked(searched.document));
    const link = clientList().locator(`a[href="/clientes/${searched.id}"]`);
    await link.waitFor(WAIT);
    await expect.poll(() => clientList().getByRole('link').count(), WAIT).toBe(1);

    await search.fill('nenhum cliente se chama assim xyzzy');
    await page.getByText('Nenhum cliente encontrado com essa busca.').waitFor(WAIT);

    // Folded and upper-cased: the search ignores accents and case, like the server's.
    await search.fill(foldSearchText(titleOf(searched)).toUpperCase());
    await link.waitFor(WAIT);
  });

  it('opens the client with its financial status, address and a link to a new order', async () => {
    const search = page.getByRole('searchbox', { name: 'Buscar cliente' });
    await search.fill(masked(searched.document));
    await clientList().locator(`a[href="/clientes/${searched.id}"]`).click();
    await page.waitForURL(`${server.url}/clientes/${searched.id}`);
    await page.getByRole('heading', { level: 1, name: titleOf(searched) }).waitFor(WAIT);
    await page.getByText('Situação financeira').waitFor();
    await page.getByText('Limite de crédito').waitFor();
    await page.getByRole('heading', { name: 'Últimos pedidos' }).waitFor();
    const order = page.getByRole('link', { name: 'Novo pedido' });
    expect(await order.getAttribute('href')).toBe(`/pedidos/novo?cliente=${searched.id}`);
    // Online, the server's answer replaces the "loading" note (and no offline note shows).
    await expect.poll(() => page.getByText('Buscando pedidos no servidor').count(), WAIT).toBe(0);
    expect(await page.getByText('Sem conexão').count()).toBe(0);
  });

  it('lists the client blocked in the ERP under Bloqueados and refuses a new order with the reason', async () => {
    await page.goto(`${server.url}/clientes`);
    await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill('');
    await page.getByRole('radio', { name: 'Bloqueados' }).check();
    // Until the filter's query answers, the unfiltered list (with both clients) is on screen.
    await expect.poll(() => clientList().locator(`a[href="/clientes/${searched.id}"]`).count(), WAIT).toBe(0);
    const link = clientList().locator(`a[href="/clientes/${blocked.id}"]`);
    await link.waitFor(WAIT);
    await link.click();
    await page.getByRole('heading', { level: 1, name: titleOf(blocked) }).waitFor(WAIT);
    const button = page.getByRole('button', { name: 'Novo pedido' });
    expect(await button.isDisabled()).toBe(true);
    expect(await page.getByRole('link', { name: 'Novo pedido' }).count()).toBe(0);
    // The reason sits next to the button and is its description for screen readers.
    const reason = page.locator('#motivo-bloqueio');
    expect(await reason.textContent()).toMatch(/^Cliente bloqueado: /);
    expect(await button.getAttribute('aria-describedby')).toBe('motivo-bloqueio');
    // Reset for the next visit: the filter is kept across screens on purpose.
    await page.goto(`${server.url}/clientes`);
    await page.getByRole('radio', { name: 'Todos' }).check();
  });

  it("finds a product in the catalog with its price on the client's pauta and the manager's promotion", async () => {
    await page.goto(`${server.url}/catalogo?cliente=${searched.id}`);
    await expect.poll(() => page.getByLabel('Preços da pauta').inputValue(), WAIT).toBe(String(searched.idPauta));
    await page.getByRole('searchbox', { name: 'Buscar produto' }).fill(product.code);
    const link = page.locator(`a[href="/catalogo/${product.id}"]`);
    await link.waitFor(WAIT);
    const row = page.getByRole('listitem').filter({ has: link });
    await expect.poll(async () => spaces(await row.textContent()), WAIT).toContain(money(product.price));
    await row.getByText('Promoção', { exact: true }).waitFor(WAIT);

    await link.click();
    await page.getByRole('heading', { level: 1, name: product.description }).waitFor(WAIT);
    const rule = page
      .getByRole('region', { name: 'Regras que alcançam este produto' })
      .getByRole('listitem')
      .filter({ hasText: RULE });
    await rule.waitFor(WAIT);
    expect(spaces(await rule.textContent())).toContain('37,5%');
    expect(await rule.textContent()).toContain('Todas as pautas');
    // The engine's verdict for today: the promotion raises the ceiling above the base.
    const ceiling = page.getByRole('region', { name: 'Seu desconto' });
    await expect
      .poll(async () => spaces(await ceiling.textContent()), WAIT)
      .toContain(`teto de 37,5% pela regra "${RULE}"`);
    const prices = page.getByRole('table');
    expect(spaces(await prices.textContent())).toContain(money(product.price));
  });

  it('ran under the Content-Security-Policy without a violation', () => {
    expect(suite.cspViolations()).toEqual([]);
  });
});
