// Refusals where the representative sees them, in a real browser at 360 px: a funnel card the
// server did not create, an edit it did not take and a reply to a ticket closed meanwhile come
// back with their reason, and the screens offer the ways out (Corrigir, Descartar, Abrir novo
// chamado com este texto). The refusals are answered by a stand-in in front of the real server
// (`refuse` below), exactly in the shape of the push contract (shared/src/sync.ts, `recusa`),
// since the server's own refusals are built separately; everything else is the real server.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { logIn, type WebServer } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { firstErpOrderNumber } from '../support/erp.ts';

const LOGIN = 'rep.recusa@campo.test';
const PASSWORD = 'senha-da-recusa-1';
const WAIT = { timeout: 30_000 };
const NOT_CREATED = 'Padaria Recusada';
const EDITED = 'Mercado Editado';
const REFUSED_REPLY = 'Esta resposta chega tarde';
let erpOrder = 0;
/** Pushes the stand-in refused (and did not forward). */
const refusedPushes: string[] = [];

type Doc = Record<string, unknown> & { id: string };
type Row = { assumedMasterState: Doc | null; newDocumentState: Doc };

/**
 * The server's per-document refusals, for three marked writes: a card created with the name
 * NOT_CREATED, a move of EDITED to "ganho" and a reply REFUSED_REPLY. Anything else in the same
 * push goes to the real server.
 */
function refuse(fetchApp: (req: Request) => Response | Promise<Response>) {
  return async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    if (req.method !== 'POST' || !/\/sync\/(funil|chamados)\/push$/.test(path)) return fetchApp(req);
    const rows = (await req.clone().json()) as Row[];
    const answers: Doc[] = [];
    const forward: Row[] = [];
    for (const row of rows) {
      const next = row.newDocumentState;
      if (next._deleted !== true && row.assumedMasterState === null && next.nomeProspect === NOT_CREATED) {
        answers.push({
          ...next,
          recusa: { code: 'CLIENT_NOT_IN_PORTFOLIO', message: 'O cliente não está mais na sua carteira.' },
        });
      } else if (next.nomeProspect === EDITED && next.estagio === 'ganho' && !next.recusa && row.assumedMasterState) {
        answers.push({
          ...row.assumedMasterState,
          _deleted: false,
          recusa: { code: 'VALIDATION', message: 'Informe o pedido que fechou a venda.', campos: { estagio: 'ganho' } },
        });
      } else if (
        Array.isArray(next.mensagens) &&
        (next.mensagens as Doc[]).some((m) => m.texto === REFUSED_REPLY && !m.recusa)
      ) {
        answers.push({
          ...next,
          mensagens: (next.mensagens as Doc[]).map((m) =>
            m.texto === REFUSED_REPLY
              ? { ...m, recusa: { code: 'TICKET_CLOSED', message: 'O chamado foi encerrado antes desta resposta.' } }
              : m,
          ),
        });
      } else {
        forward.push(row);
        continue;
      }
      refusedPushes.push(next.id);
    }
    if (forward.length > 0) {
      const res = await fetchApp(
        new Request(req.url, { method: 'POST', headers: req.headers, body: JSON.stringify(forward) }),
      );
      if (!res.ok) return res;
      answers.push(...((await res.json()) as Doc[]));
    }
    return Response.json(answers);
  };
}

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [{ login: LOGIN, name: 'Rita Recusa', role: 'representative' }],
  setUp: async ({ db, rep }) => {
    erpOrder = await firstErpOrderNumber(db.pool, rep);
  },
  server: { wrap: refuse },
});
const db = suite.db;
let server: WebServer;
let page: Page;

beforeAll(() => {
  ({ server, page } = suite);
});

const syncStatus = () => page.getByRole('status', { name: 'Sincronização' });
const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name }).click();
const card = (name: string) => page.getByRole('article', { name });
const column = (stage: string) => page.locator(`section[data-stage="${stage}"]`);

async function cardsOnServer(name: string): Promise<{ estagio: string }[]> {
  const r = await db.pool.query<{ estagio: string }>('select estagio from app.oportunidades where nome_prospect = $1', [
    name,
  ]);
  return r.rows;
}

async function newCard(name: string): Promise<void> {
  await page.getByRole('link', { name: 'Nova oportunidade' }).click();
  await page.getByLabel('Nome do prospect').fill(name);
  await page.getByRole('button', { name: 'Criar oportunidade' }).click();
  await card(name).waitFor(WAIT);
}

describe('refusals on the funnel', () => {
  it('logs in', async () => {
    await logIn(page, server.url, LOGIN, PASSWORD);
    await expect.poll(() => syncStatus().textContent(), WAIT).toMatch(/Sincronizado às \d\d:\d\d/);
  });

  it('a card the server did not create shows why, counts in the strip, and "Descartar" removes it', async () => {
    await nav('Funil');
    await newCard(NOT_CREATED);
    const refused = card(NOT_CREATED);
    await refused.getByText('Oportunidade não criada:').waitFor(WAIT);
    expect(await refused.textContent()).toContain('O cliente não está mais na sua carteira.');
    await syncStatus().getByRole('link', { name: '1 oportunidade recusada' }).waitFor(WAIT);
    await refused.getByRole('button', { name: 'Descartar' }).click();
    await expect.poll(() => card(NOT_CREATED).count(), WAIT).toBe(0);
    await expect
      .poll(
        () =>
          syncStatus()
            .getByRole('link', { name: /recusada/ })
            .count(),
        WAIT,
      )
      .toBe(0);
    expect(await cardsOnServer(NOT_CREATED)).toEqual([]);
  });

  it('a refused edit keeps the server card; "Corrigir" starts from what was sent and saving sends it again', async () => {
    await newCard(EDITED);
    await expect.poll(() => cardsOnServer(EDITED), WAIT).toEqual([{ estagio: 'lead' }]);
    await card(EDITED).getByLabel('Mover para').selectOption('ganho');
    // The server's card comes back, in its stage, with the reason.
    const refused = column('lead').getByRole('article', { name: EDITED });
    await refused.getByText('Alteração não aceita:').waitFor(WAIT);
    expect(await refused.textContent()).toContain('Informe o pedido que fechou a venda.');
    await refused.getByRole('link', { name: 'Corrigir' }).click();
    await page.getByRole('heading', { name: EDITED }).waitFor(WAIT);
    expect(await page.getByLabel('Etapa').inputValue()).toBe('ganho');
    await page.getByLabel('Etapa').selectOption('negociacao');
    await page.getByRole('button', { name: 'Salvar alterações' }).click();
    await column('negociacao').getByRole('article', { name: EDITED }).waitFor(WAIT);
    await expect.poll(() => cardsOnServer(EDITED), WAIT).toEqual([{ estagio: 'negociacao' }]);
    expect(await card(EDITED).getByText('Alteração não aceita:').count()).toBe(0);
  });
});

describe('refusals in SAC', () => {
  it('a reply the server did not take is greyed with the reason; it can start a new ticket or be discarded', async () => {
    await nav('SAC');
    await page.getByRole('link', { name: 'Novo chamado' }).click();
    await page.getByLabel('Um pedido antigo do ERP, pelo número').check();
    await page.getByLabel('Número do pedido no ERP').fill(String(erpOrder));
    await page.getByLabel('Assunto').fill('Nota fiscal');
    await page.getByLabel('Mensagem').fill('Preciso da segunda via.');
    await page.getByRole('button', { name: 'Abrir chamado' }).click();
    await page.getByText(/^Chamado \d+/).waitFor(WAIT);

    await page.getByLabel('Sua resposta').fill(REFUSED_REPLY);
    await page.getByRole('button', { name: 'Enviar resposta' }).click();
    const refused = page.locator('.messages li.refused');
    await refused.getByText('Não enviada:').waitFor(WAIT);
    expect(await refused.textContent()).toContain('O chamado foi encerrado antes desta resposta.');
    expect(await refused.textContent()).toContain(REFUSED_REPLY);
    await syncStatus().getByRole('link', { name: '1 chamado precisa de atenção' }).waitFor(WAIT);

    await refused.getByRole('button', { name: 'Abrir novo chamado com este texto' }).click();
    await page.getByRole('heading', { name: 'Novo chamado' }).waitFor(WAIT);
    expect(await page.getByLabel('Mensagem').inputValue()).toBe(REFUSED_REPLY);
    expect(await page.getByLabel('Assunto').inputValue()).toBe('Nota fiscal');
    expect(await page.getByLabel('Número do pedido no ERP').inputValue()).toBe(String(erpOrder));

    await page.goBack();
    await page.locator('.messages li.refused').getByRole('button', { name: 'Descartar' }).click();
    await expect.poll(() => page.locator('.messages li').count(), WAIT).toBe(1);
    await expect
      .poll(
        () =>
          syncStatus()
            .getByRole('link', { name: /atenção/ })
            .count(),
        WAIT,
      )
      .toBe(0);
    expect(refusedPushes.length).toBeGreaterThanOrEqual(3);
  });
});
