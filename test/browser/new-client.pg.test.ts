// A client registered in the field with no network at all (server stopped, browser offline):
// the form checks it with the shared contract and keeps what was typed on an error, the
// registration waits on the device as "Aguardando ERP", and once the network is back the ERP
// holds the client and the portfolio lists it with a new order on offer.
import { cnpjCheckDigits, formatCnpj } from '@campo/shared/documents';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { logIn, type WebServer, waitForServiceWorker } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';

const LOGIN = 'rep.cadastro@campo.test';
const PASSWORD = 'senha-do-cadastro-1';
const RAZAO = 'Padaria São João do Teste Ltda';
const WAIT = { timeout: 30_000 };

let cnpj: string;
let erpClient: number;
/** A document the ERP holds in another representative's portfolio. */
let othersDocument: string;
const suite = useBrowserSuite({
  password: PASSWORD,
  users: [{ login: LOGIN, name: 'Nina Cadastro', role: 'representative' }],
  setUp: async ({ db, rep }) => {
    cnpj = await freshCnpj();
    const other = await db.pool.query<{ doc: string }>(
      `select cnpj_cpf as doc from app.vw_clientes
        where id_empresa = $1 and cod_vendedor <> $2 and length(cnpj_cpf) = 14 order by id_cliente limit 1`,
      [rep.idEmpresa, rep.codVendedor],
    );
    if (!other.rows[0]) throw new Error('the fixture has no client of another representative');
    othersDocument = other.rows[0].doc;
  },
});
const db = suite.db;
let server: WebServer;
let page: Page;

beforeAll(() => {
  ({ server, page } = suite);
});

/** A CNPJ with valid check digits that the fixture does not hold. */
async function freshCnpj(): Promise<string> {
  for (;;) {
    const base = `${Math.floor(Math.random() * 1e8)
      .toString()
      .padStart(8, '0')}0001`;
    const doc = base + cnpjCheckDigits(base);
    const taken = await db.pool.query('select 1 from corrent where cnpj_cpf = $1', [doc]);
    if (taken.rowCount === 0) return doc;
  }
}

const clientList = () => page.getByRole('list', { name: 'Clientes da carteira' });
const errorOf = (field: string) => page.locator(`#cliente-${field}-erro`);

describe('a new client registered offline', () => {
  it('logs in and downloads the portfolio', async () => {
    await logIn(page, server.url, LOGIN, PASSWORD);
    await page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Clientes' }).click();
    await clientList().getByRole('link').first().waitFor(WAIT);
    await waitForServiceWorker(page);
  });

  it('is checked field by field and queued with no network, keeping what was typed', async () => {
    await suite.goOffline();
    await expect(page.request.get(`${server.url}/api/v1/health`).then((r) => r.status())).rejects.toThrow();

    await page.getByRole('link', { name: 'Novo cliente' }).click();
    await page.getByRole('heading', { name: 'Novo cliente' }).waitFor(WAIT);
    const wrongDigit = cnpj.slice(0, 13) + String((Number(cnpj[13]) + 1) % 10);
    await page.getByLabel('Razão social').fill(RAZAO);
    await page.getByLabel('CNPJ ou CPF').fill(wrongDigit);
    // The mask is applied as the document is typed.
    expect(await page.getByLabel('CNPJ ou CPF').inputValue()).toBe(formatCnpj(wrongDigit));
    await page.getByRole('textbox', { name: 'Inscrição estadual', exact: true }).fill('123.456.789.110');
    await page.getByLabel('CEP').fill('1234');
    await page.getByLabel('Endereço').fill('Rua das Flores');
    await page.getByLabel('Número').fill('120');
    await page.getByLabel('Bairro').fill('Centro');
    await page.getByLabel('Cidade').fill('São Paulo');
    await page.getByLabel('Telefone').fill('11987654321');
    expect(await page.getByLabel('Telefone').inputValue()).toBe('(11) 98765-4321');
    await page.getByRole('button', { name: 'Cadastrar cliente' }).click();

    await page.getByRole('alert').filter({ hasText: 'Corrija os 3 campos marcados.' }).waitFor(WAIT);
    expect(await errorOf('documento').textContent()).toBe('CNPJ inválido: dígito verificador não confere.');
    expect(await errorOf('cep').textContent()).toBe('CEP deve ter 8 dígitos.');
    expect(await errorOf('uf').textContent()).toBe('Escolha a UF.');
    expect(await page.getByLabel('CNPJ ou CPF').getAttribute('aria-invalid')).toBe('true');
    // Nothing typed was lost, and the first wrong field has the focus.
    expect(await page.getByLabel('Razão social').inputValue()).toBe(RAZAO);
    expect(await page.getByLabel('Bairro').inputValue()).toBe('Centro');
    expect(await page.getByLabel('CNPJ ou CPF').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);

    await page.getByLabel('CNPJ ou CPF').fill(cnpj);
    await page.getByLabel('CEP').fill('01310100');
    expect(await page.getByLabel('CEP').inputValue()).toBe('01310-100');
    await page.getByLabel('UF').selectOption('SP');
    expect(await page.getByLabel('Pauta de preço').inputValue()).not.toBe('');
    await page.getByRole('button', { name: 'Cadastrar cliente' }).click();

    await page.waitForURL(`${server.url}/clientes`, WAIT);
    const pending = page.getByRole('region', { name: 'Cadastros enviados daqui' }).getByRole('listitem');
    await pending.filter({ hasText: RAZAO }).getByText('Aguardando ERP').waitFor(WAIT);
  });

  it('reaches the ERP once the network is back, and the client joins the portfolio', async () => {
    // goOffline restored the server and the network when the previous test ended.
    let row: { id: number; razao: string } | undefined;
    await expect
      .poll(
        async () => {
          const r = await db.pool.query<{ id: number; razao: string }>(
            'select id_corrent as id, razao_social as razao from corrent where cnpj_cpf = $1',
            [cnpj],
          );
          row = r.rows[0];
          return r.rowCount;
        },
        { timeout: 45_000, interval: 500 },
      )
      .toBe(1);
    if (!row) throw new Error('no ERP client');
    expect(row.razao).toBe(RAZAO);

    await page.getByText('Aguardando ERP').waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill(cnpj);
    const link = clientList().locator(`a[href="/clientes/${row.id}"]`);
    await link.waitFor(WAIT);
    await link.click();
    await page.getByRole('heading', { level: 1, name: RAZAO }).waitFor(WAIT);
    const order = page.getByRole('link', { name: 'Novo pedido' });
    expect(await order.getAttribute('href')).toBe(`/pedidos/novo?cliente=${row.id}`);
    erpClient = row.id;
  });

  // The cart is the Pedidos screen's (docs/pwa.md); this only checks the new client can order.
  it('takes an order from its page', async () => {
    const found = await db.pool.query<{ code: string; description: string }>(
      `select p.cod_produto as code, p.descricao as description
         from app.vw_clientes c
         join app.vw_precos pr on pr.id_empresa = c.id_empresa and pr.id_pauta = c.id_pauta
         join app.vw_produtos p on p.id_produto = pr.id_produto and p.id_filial = pr.id_filial
        where c.id_cliente = $1 and p.ativo and p.cod_produto is not null
        order by p.id_produto limit 1`,
      [erpClient],
    );
    const product = found.rows[0];
    if (!product) throw new Error('no product priced on the new client’s pauta');
    await page.getByRole('link', { name: 'Novo pedido' }).click();
    await page.getByRole('heading', { name: 'Novo pedido' }).waitFor(WAIT);
    await page.getByLabel('Buscar produto').fill(product.code);
    await page.getByRole('button', { name: `Adicionar ${product.description}`, exact: true }).click();
    // A client registered through Campo has no default payment term in the ERP: the cart asks.
    await page.getByRole('button', { name: 'Enviar pedido' }).click();
    await page.getByText('Escolha a condição de pagamento.').waitFor(WAIT);
    const picker = page.getByLabel('Condição de pagamento');
    const term = await picker.locator('option:not([disabled])').first().getAttribute('value');
    await picker.selectOption(term as string);
    await page.getByRole('button', { name: 'Enviar pedido' }).click();
    await page.waitForURL(/\/pedidos\/[0-9a-f-]{36}$/, WAIT);
    await expect
      .poll(
        async () =>
          (
            await db.pool.query('select id from app.pedidos where id_cliente = $1 and id_condicao = $2', [
              erpClient,
              Number(term),
            ])
          ).rowCount,
        { timeout: 45_000, interval: 500 },
      )
      .toBe(1);
    // The client's page lists it among its latest orders.
    await page.goto(`${server.url}/clientes/${erpClient}`);
    const orders = page.getByRole('region', { name: 'Últimos pedidos' });
    await orders.getByText('Aguardando aprovação').waitFor(WAIT);
    // The row opens the order.
    await orders
      .getByRole('link', { name: /^Pedido \d+$/ })
      .first()
      .click();
    await page.waitForURL(/\/pedidos\/[0-9a-f-]{36}$/, WAIT);
    await page.getByText('Aguardando aprovação', { exact: true }).first().waitFor(WAIT);
  });

  it("is refused by the server for another representative's client, then fixed and sent again", async () => {
    const razao = 'Empório Recusado Primeiro';
    await page.goto(`${server.url}/clientes/novo`);
    await page.getByRole('heading', { name: 'Novo cliente' }).waitFor(WAIT);
    await page.getByLabel('Razão social').fill(razao);
    await page.getByLabel('CNPJ ou CPF').fill(othersDocument);
    await page.getByLabel('Isento de inscrição estadual').check();
    await page.getByLabel('CEP').fill('20040-002');
    await page.getByLabel('UF').selectOption('RJ');
    await page.getByLabel('Endereço').fill('Avenida Rio Branco');
    await page.getByLabel('Bairro').fill('Centro');
    await page.getByLabel('Cidade').fill('Rio de Janeiro');
    await page.getByRole('button', { name: 'Cadastrar cliente' }).click();
    await page.waitForURL(`${server.url}/clientes`, WAIT);

    const entry = page
      .getByRole('region', { name: 'Cadastros enviados daqui' })
      .getByRole('listitem')
      .filter({ hasText: razao });
    await entry.getByText('Recusado', { exact: true }).waitFor(WAIT);
    expect(await entry.getByRole('list', { name: 'Motivos da recusa' }).textContent()).toContain(
      'na carteira de outro representante',
    );

    await entry.getByRole('link', { name: 'Corrigir e reenviar' }).click();
    await page.getByRole('heading', { name: 'Corrigir cadastro' }).waitFor(WAIT);
    // The refused data is back in the form, masks included, with the server's reason above it.
    expect(await page.getByLabel('Razão social').inputValue()).toBe(razao);
    expect(await page.getByLabel('CNPJ ou CPF').inputValue()).toBe(formatCnpj(othersDocument));
    expect(await page.getByLabel('Isento de inscrição estadual').isChecked()).toBe(true);
    await page.getByText('O ERP recusou este cadastro').waitFor();
    const fixed = await freshCnpj();
    await page.getByLabel('CNPJ ou CPF').fill(fixed);
    await page.getByRole('button', { name: 'Reenviar cadastro' }).click();
    await page.waitForURL(`${server.url}/clientes`, WAIT);
    await expect
      .poll(async () => (await db.pool.query('select 1 from corrent where cnpj_cpf = $1', [fixed])).rowCount, {
        timeout: 45_000,
        interval: 500,
      })
      .toBe(1);
    await entry.waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill(razao);
    await clientList().getByRole('link').filter({ hasText: razao }).waitFor(WAIT);
  });
});
