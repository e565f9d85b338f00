// The print view of an order with long values (issue #41): a client's name, a delivery address
// and an observation at their longest, with words no line can hold, and a long product
// description. At 360 px, at 1280 px and at an A4 page's width in print media, nothing may
// scroll sideways, no label may meet its value, and nothing may pass the page's right edge; the
// supervisor's review of the same order holds at 360 px too.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { logIn, scrollsSideways, WAIT } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { orderableSale } from '../support/erp.ts';

const PASSWORD = 'senha-da-impressao-41';
const REP = 'rep.impressao@campo.test';
const SUP = 'sup.impressao@campo.test';

let sale: { idCliente: number; idProduto: number };
const unbroken = (n: number) => 'GalpãoLogísticoSetorBDoca'.repeat(n);
const CLIENT = `Supermercado ${unbroken(4)} Comercial de Alimentos Eireli`;
const ADDRESS = `Rodovia ${unbroken(5)}`.slice(0, 200);
const NOTE = `Entregar pela manhã, ${unbroken(8)} falar com o Sr. Joaquim na portaria lateral.`.slice(0, 500);
const PRODUCT = `Biscoito recheado ${unbroken(6)} sabor chocolate`;

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [
    { login: REP, name: 'Iara Impressão', role: 'representative' },
    { login: SUP, name: 'Otto Revisão', role: 'supervisor' },
  ],
  browsers: 2,
  setUp: async ({ db, rep }) => {
    sale = await orderableSale(db.pool, rep);
  },
});
const db = suite.db;
let page: Page;
let numPedSar: number;

beforeAll(async () => {
  const server = suite.server;
  page = suite.page;
  const res = await fetch(`${server.url}/api/v1/orders`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${await suite.token(REP)}`,
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({
      idCliente: sale.idCliente,
      endEntrega: ADDRESS,
      observacao: NOTE,
      itens: [{ idProduto: sale.idProduto, quantidade: 98765, descontoPercent: 0 }],
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  numPedSar = (await db.pool.query<{ n: number }>('select num_ped_sar as n from app.pedidos where id = $1', [id]))
    .rows[0]?.n as number;
  // What the order copied from the ERP, at its longest, before the phone first downloads it.
  await db.pool.query('update app.pedidos set nome_cliente = $2 where id = $1', [id, CLIENT]);
  await db.pool.query('update app.pedido_itens set descricao = $2 where id_pedido = $1', [id, PRODUCT]);
  await logIn(page, server.url, REP, PASSWORD);
  await page.goto(`${server.url}/pedidos`);
  const link = page.locator('.order-card a[href^="/pedidos/"]').first();
  await link.waitFor(WAIT);
  await link.click();
  await page.getByRole('table', { name: 'Itens do pedido' }).waitFor(WAIT);
  await page.goto(`${page.url()}/imprimir`);
  await page.locator('.letterhead').waitFor(WAIT);
  await page.locator('.order-facts').getByText(NOTE.slice(0, 30)).waitFor(WAIT);
});

/** Every label whose box meets its value's, and every element passing the right edge `width`. */
async function layoutProblems(p: Page, width: number, root = '.print-view', facts = '.order-facts'): Promise<string[]> {
  return p.locator(root).evaluate(
    (view, [w, factsSelector]) => {
      type El = {
        tagName: string;
        textContent: string | null;
        nextElementSibling: El | null;
        closest(s: string): El | null;
        getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
      };
      const v = view as unknown as { querySelectorAll(s: string): ArrayLike<El> };
      const problems: string[] = [];
      for (const dt of Array.from(v.querySelectorAll(`${factsSelector} dt`))) {
        const dd = dt.nextElementSibling;
        if (!dd) continue;
        const a = dt.getBoundingClientRect();
        const b = dd.getBoundingClientRect();
        const meet = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        if (meet) problems.push(`"${dt.textContent}" meets its value`);
      }
      for (const el of Array.from(v.querySelectorAll('*'))) {
        const r = el.getBoundingClientRect();
        // A wide table may scroll inside its own box (.table-scroll, .mg-scroll); a cell of it
        // wider than the screen may not, nor anything else passing the edge.
        const scrolled = el.closest('.table-scroll, .mg-scroll') !== null;
        const cell = el.tagName === 'TD' || el.tagName === 'TH';
        if (scrolled ? cell && r.right - r.left > Number(w) : r.right > Number(w) + 0.5) {
          problems.push(`${el.tagName} "${(el.textContent ?? '').slice(0, 30)}" ends at ${r.right}`);
        }
      }
      return problems;
    },
    [width, facts] as const,
  );
}

describe('the print view with long values', () => {
  it('keeps labels apart from their values and everything within a 360 px phone', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await layoutProblems(page, 360)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
  });

  it('does the same on a 1280 px desk', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await layoutProblems(page, 1280)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
  });

  it('does the same on paper: A4 less its 15 mm margins, in print media', async () => {
    // 210 mm − 2 × 15 mm at 96 px to the inch.
    const paper = Math.floor((180 / 25.4) * 96);
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize({ width: paper, height: 1000 });
    try {
      expect(await layoutProblems(page, paper)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }
  });

  it("keeps the supervisor's review of the order within a 360 px phone", async () => {
    const sup = suite.pageOf(1);
    await logIn(sup, suite.server.url, SUP, PASSWORD);
    await sup.goto(`${suite.server.url}/aprovacoes`);
    await sup
      .getByRole('list', { name: 'Pedidos aguardando aprovação' })
      .getByRole('link', { name: new RegExp(`Pedido nº ${numPedSar}\\b`) })
      .click();
    await sup.getByRole('heading', { name: `Pedido nº ${numPedSar}` }).waitFor(WAIT);
    await sup.getByText(NOTE.slice(0, 30)).waitFor(WAIT);
    expect(await layoutProblems(sup, 360, 'main', '.mg-facts')).toEqual([]);
    expect(await scrollsSideways(sup)).toBe(false);
  });
});
