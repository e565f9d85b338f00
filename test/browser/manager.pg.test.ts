// The manager's screens in real Chromium: a discount rule for one pauta created through the
// rule editor (and found in the database as the API stored it), which a representative's cart
// then applies in advance after a sync; a logo uploaded through /empresa (a GIF refused with
// the API's explanation first, then a PNG shown from what the server saved); and a
// representative typing /regras turned away.
import { businessDate, decodeLossless } from '@campo/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { gif, png } from '../fixtures/images.ts';
import { addToCart, logIn, logOut, sendOrder, WAIT, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { knownCeiling, orderableSale } from '../support/erp.ts';

const MANAGER = 'gerente.navegador@campo.test';
const REP = 'rep.semacesso@campo.test';
const SUPERVISOR = 'supervisor.navegador@campo.test';
const PASSWORD = 'senha-do-gerente-1';

let idEmpresa: number;
let pauta: { id_pauta: number; descricao: string };
let sale: { idCliente: number; code: string; description: string };
const today = businessDate(new Date());
const inAMonth = businessDate(new Date(Date.now() + 30 * 86_400_000));
/** The date fields speak dd/mm/aaaa in every browser, whatever its language. */
const ptBr = (iso: string) => iso.split('-').reverse().join('/');
const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { login: MANAGER, name: 'Gabriela Gerente', role: 'manager' },
    { login: REP, name: 'Renato Representante', role: 'representative' },
    { login: SUPERVISOR, name: 'Sérgio Supervisor', role: 'supervisor' },
  ],
  setUp: async ({ db, rep }) => {
    idEmpresa = rep.idEmpresa;
    // The rule goes to the pauta of a client of the representative, so their cart can show it.
    sale = await orderableSale(db.pool, rep);
    const { rows } = await db.pool.query<{ id_pauta: number; descricao: string }>(
      `select pa.id_pauta, pa.descricao from app.vw_pautas pa
         join app.vw_clientes c on c.id_pauta = pa.id_pauta and c.id_empresa = pa.id_empresa
        where c.id_cliente = $1 limit 1`,
      [sale.idCliente],
    );
    if (!rows[0]) throw new Error('the client has no pauta');
    pauta = rows[0];
    // A known base ceiling (5%) below the rule, so the rule is what sets the line.
    await knownCeiling(db.pool, rep, 5);
  },
});
const db = suite.db;
let server: WebServer;
let page: Page;

beforeAll(() => {
  ({ server, page } = suite);
});

const logInAs = (login: string) => logIn(page, server.url, login, PASSWORD);

describe('the manager screens', () => {
  it('creates a discount rule for one pauta through /regras', async () => {
    await logInAs(MANAGER);
    await page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Regras' }).click();
    await page.getByRole('heading', { name: 'Regras de desconto' }).waitFor(WAIT);
    await page.getByRole('link', { name: 'Nova regra' }).click();
    await page.getByRole('heading', { name: 'Nova regra de desconto' }).waitFor(WAIT);

    await page.getByLabel('Descrição').fill('Campanha de verão — pauta única');
    // A percent above 100 is refused on the spot, and nothing typed is lost.
    await page.getByLabel('Percentual de desconto').fill('150');
    await page.getByRole('button', { name: 'Criar regra' }).click();
    await page.getByText('informe um percentual maior que 0 e até 100').waitFor(WAIT);
    expect(await page.getByLabel('Descrição').inputValue()).toBe('Campanha de verão — pauta única');

    await page.getByLabel('Percentual de desconto').fill('7,5');
    await page.getByLabel(`${pauta.descricao} (${pauta.id_pauta})`).check(WAIT);
    // A rule for a new creation starts today, shown as dd/mm/aaaa.
    expect(await page.getByLabel('Início da vigência').inputValue()).toBe(ptBr(today));
    await page.getByLabel('Início da vigência').fill(ptBr(today));
    // Digits alone are masked as they are typed.
    await page.getByLabel('Fim da vigência').fill('');
    await page.getByLabel('Fim da vigência').pressSequentially(ptBr(inAMonth).replaceAll('/', ''));
    expect(await page.getByLabel('Fim da vigência').inputValue()).toBe(ptBr(inAMonth));
    await page.getByRole('button', { name: 'Criar regra' }).click();
    await page.getByRole('heading', { name: 'Regra criada' }).waitFor(WAIT);

    const { rows } = await db.pool.query(
      `select descricao, percent::float8 as percent, id_pauta, vigencia_inicio::text as ini, vigencia_fim::text as fim
         from app.regras_desconto where id_empresa = $1 and descricao like 'Campanha de ver%'`,
      [idEmpresa],
    );
    expect(rows.map((r) => ({ ...r, descricao: decodeLossless(r.descricao) }))).toEqual([
      // Campo-only text, kept as typed: the em dash is stored in the lossless LATIN1 form.
      {
        descricao: 'Campanha de verão — pauta única',
        percent: 7.5,
        id_pauta: pauta.id_pauta,
        ini: today,
        fim: inAMonth,
      },
    ]);

    // The rule in force is listed under Em vigor.
    await page.getByRole('link', { name: 'Ver regras' }).click();
    await page.getByRole('link', { name: 'Em vigor' }).click();
    await page
      .getByRole('list', { name: 'Regras' })
      .getByText('Campanha de verão — pauta única', { exact: true })
      .waitFor(WAIT);
  });

  it('uploads a logo through /empresa and shows it from what the server saved', async () => {
    await page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Empresa' }).click();
    await page.getByRole('heading', { name: 'Empresa' }).waitFor(WAIT);
    await page.getByText('Nenhum logo cadastrado.').waitFor(WAIT);

    // A GIF is refused by the API, whose explanation the screen shows.
    await page.getByLabel('Arquivo do logo').setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: gif() });
    await page.getByRole('button', { name: 'Enviar logo' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), WAIT)
      .toContain('O logo precisa ser uma imagem PNG, JPEG ou WebP');

    const logo = png(32, 16);
    await page.getByLabel('Arquivo do logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
    await page.getByRole('img', { name: 'Pré-visualização do novo logo' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Enviar logo' }).click();
    await page.getByText('Logo salvo.').waitFor(WAIT);
    const saved = page.getByRole('img', { name: 'Logo atual da empresa' });
    await saved.waitFor(WAIT);
    expect(await saved.getAttribute('src')).toBe(`data:image/png;base64,${logo.toString('base64')}`);
    // The browser really decoded it: the image has the file's size.
    await expect
      .poll(() => saved.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), WAIT)
      .toBe(32);
  });

  it("applies the manager's rule in advance in a representative's cart after a sync", async () => {
    await logOut(page);
    await logInAs(REP);
    await page.goto(`${server.url}/pedidos/novo?cliente=${sale.idCliente}`);
    await page.getByRole('heading', { name: 'Novo pedido' }).waitFor(WAIT);
    await expect.poll(() => page.getByText('ainda não chegaram').count(), WAIT).toBe(0);
    const line = await addToCart(page, sale);
    await expect.poll(() => line.getByLabel('Desconto (%)').inputValue(), WAIT).toBe('7,5');
    expect(await line.textContent()).toContain('regra "Campanha de verão — pauta única"');
  });

  it("prints the representative's approved order with the logo the manager uploaded", async () => {
    const docId = await sendOrder(page);
    // The supervisor approves through the API (the approval screen has its own test).
    const token = await suite.token(SUPERVISOR);
    const { rows } = await db.pool.query<{ id: number }>(
      'select id_pedido as id from app.chaves_idempotencia where chave = $1',
      [docId],
    );
    const approved = await fetch(`${server.url}/api/v1/orders/${rows[0]?.id}/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(approved.status).toBe(200);
    await page.goto(`${server.url}/pedidos/${docId}`);
    await page.getByText('Aprovado', { exact: true }).first().waitFor(WAIT);
    await page.getByRole('link', { name: 'Imprimir' }).click();
    await page.waitForURL(`${server.url}/pedidos/${docId}/imprimir`, WAIT);
    // The 32 × 16 PNG uploaded through /empresa, decoded on the printed order.
    const logo = page.locator('.letterhead img');
    await expect
      .poll(() => logo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), WAIT)
      .toBe(32);
  });

  it('turns a representative typing /regras away', async () => {
    await page.goto(`${server.url}/regras`);
    await page.getByRole('heading', { name: 'Sem acesso' }).waitFor(WAIT);
  });
});
