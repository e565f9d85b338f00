// The cart's "O ERP receberá: «…»" in a real browser on a WIN1252 ERP: the app learns the
// encoding from the company document and warns only where that encoding changes what the
// representative typed (curly quotes, dashes and "€" go through as typed; an emoji does not).
// The LATIN1 case, where the same dash and "€" are transliterated, is in orders.pg.test.ts.
import { describe, it } from 'vitest';
import { logIn, WAIT } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { clientWithPauta } from '../support/erp.ts';

const LOGIN = 'rep.texto@campo.test';
const PASSWORD = 'senha-do-texto-1';
let client = { id: 0, name: '' };

const suite = useBrowserSuite({
  encoding: 'WIN1252',
  password: PASSWORD,
  users: [{ login: LOGIN, name: 'Rita Texto', role: 'representative' }],
  setUp: async ({ db, rep }) => {
    const c = await clientWithPauta(db.pool, rep);
    client = { id: c.id, name: c.name };
  },
});

describe('text bound for a WIN1252 ERP in the cart', () => {
  it('says what the ERP will receive only when its encoding changes the text', async () => {
    const { page, server } = suite;
    await logIn(page, server.url, LOGIN, PASSWORD);
    await page.goto(`${server.url}/pedidos/novo?cliente=${client.id}`);
    await page.locator('.chosen-client').getByText(client.name, { exact: true }).waitFor(WAIT);
    const note = page.getByLabel('Observação');
    // First an emoji, so the warning shows once the company document (and its encoding) arrived.
    await note.fill('Entregar — “manhã” € ☀️');
    await page.getByText('O ERP receberá: «Entregar — “manhã” €»').waitFor(WAIT);
    await note.fill('Entregar — “manhã” €');
    await page.locator('.erp-text').waitFor({ ...WAIT, state: 'detached' });
  });
});
