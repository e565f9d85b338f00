// The manager's screens in real Chromium: a discount rule for one pauta created through the
// rule editor (and found in the database as the API stored it), a logo uploaded through
// /empresa (a GIF refused with the API's explanation first, then a PNG shown from what the
// server saved), and a representative typing /regras turned away.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gif, png } from '../../server/src/company/test-images.ts';
import { createDb } from '../../server/src/db/kysely.ts';
import { addUser } from '../../server/src/users/service.ts';
import {
  type Browser,
  launchBrowser,
  requireClientBuild,
  screenshotOnFailure,
  startWebServer,
  type WebServer,
} from '../support/browser.ts';
import { provisionedErp } from '../support/erp.ts';
import { useTestDatabase } from '../support/pg.ts';

const db = useTestDatabase();
const MANAGER = 'gerente.navegador@campo.test';
const REP = 'rep.semacesso@campo.test';
const PASSWORD = 'senha-do-gerente-1';
const WAIT = { timeout: 30_000 };

let server: WebServer;
let browser: Browser | undefined;
let page: Page;
let idEmpresa: number;
let pauta: { id_pauta: number; descricao: string };

async function logIn(login: string) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('heading', { name: 'Início' }).waitFor(WAIT);
}

beforeAll(async () => {
  requireClientBuild();
  const erp = await provisionedErp(db.pool);
  const rep = erp.reps[0];
  if (!rep) throw new Error('the fixture has no representative');
  idEmpresa = rep.idEmpresa;
  const kdb = createDb(db.pool);
  await addUser(kdb, {
    login: MANAGER,
    name: 'Gabriela Gerente',
    role: 'manager',
    idEmpresa,
    codVendedor: null,
    codSupervisor: null,
    password: PASSWORD,
  });
  await addUser(kdb, {
    login: REP,
    name: 'Renato Representante',
    role: 'representative',
    idEmpresa,
    codVendedor: rep.codVendedor,
    codSupervisor: null,
    password: PASSWORD,
  });
  const { rows } = await db.pool.query<{ id_pauta: number; descricao: string }>(
    'select id_pauta, descricao from app.vw_pautas where id_empresa = $1 order by id_pauta limit 1',
    [idEmpresa],
  );
  if (!rows[0]) throw new Error('the fixture has no pauta');
  pauta = rows[0];
  server = await startWebServer(db.pool);
  browser = await launchBrowser();
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

screenshotOnFailure(() => page);

describe('the manager screens', () => {
  it('creates a discount rule for one pauta through /regras', async () => {
    await logIn(MANAGER);
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
    await page.getByLabel('Início da vigência').fill('2030-01-01');
    await page.getByLabel('Fim da vigência').fill('2030-01-31');
    await page.getByRole('button', { name: 'Criar regra' }).click();
    await page.getByRole('heading', { name: 'Regra criada' }).waitFor(WAIT);

    const { rows } = await db.pool.query(
      `select descricao, percent::float8 as percent, id_pauta, vigencia_inicio::text as ini, vigencia_fim::text as fim
         from app.regras_desconto where id_empresa = $1 and descricao like 'Campanha de ver%'`,
      [idEmpresa],
    );
    expect(rows).toEqual([
      // The em dash is not LATIN1: the API stores it as a hyphen (DESIGN.md, LATIN1 text).
      {
        descricao: 'Campanha de verão - pauta única',
        percent: 7.5,
        id_pauta: pauta.id_pauta,
        ini: '2030-01-01',
        fim: '2030-01-31',
      },
    ]);

    // The future rule is listed under Futuras.
    await page.getByRole('link', { name: 'Ver regras' }).click();
    await page.getByRole('link', { name: 'Futuras' }).click();
    await page
      .getByRole('list', { name: 'Regras' })
      .getByText('Campanha de verão - pauta única', { exact: true })
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

  it('turns a representative typing /regras away', async () => {
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL(`${server.url}/login`, WAIT);
    await logIn(REP);
    await page.goto(`${server.url}/regras`);
    await page.getByRole('heading', { name: 'Sem acesso' }).waitFor(WAIT);
  });
});
