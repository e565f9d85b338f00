// The layout audit itself (test/support/screen-audit.ts), on pages written here: what it must
// report (a table cut off by its box on a desk, content cropped by a box or hidden past the
// viewport's edge) and what it must let pass (a table scrolling in its box on a phone, a box
// marked to scroll sideways, a visually hidden label, an ellipsis, a map's tiles).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from '../support/chromium.ts';
import { auditScreen } from '../support/screen-audit.ts';

const PHONE = { width: 360, height: 740 };
const DESK = { width: 1280, height: 800 };
const WIDE_TABLE = '<table style="width: 900px"><tr><th>Representante</th><td>1</td></tr></table>';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function overflowOf(viewport: { width: number; height: number }, body: string): Promise<string[]> {
  await browser.page.setViewportSize(viewport);
  await browser.page.setContent(`<!doctype html><html lang="pt-BR"><body style="margin: 0">${body}</body></html>`);
  return (await auditScreen(browser.page)).overflow;
}

describe('the layout audit', () => {
  it('reports a table wider than its scrolling box on a desk, where it must fit', async () => {
    const found = await overflowOf(
      DESK,
      `<div class="mg-scroll" style="width: 600px; overflow-x: auto">${WIDE_TABLE}</div>`,
    );
    expect(found).toEqual(['table right=900 past div.mg-scroll (600)']);
  });

  it('lets the same table scroll in its box on a phone', async () => {
    const found = await overflowOf(PHONE, `<div style="overflow-x: auto">${WIDE_TABLE}</div>`);
    expect(found).toEqual([]);
  });

  it('lets a box marked to scroll sideways hold wider content at every width', async () => {
    const body =
      '<div data-scroll-x style="width: 600px; overflow-x: auto"><div style="width: 1500px">colunas</div></div>';
    expect(await overflowOf(DESK, body)).toEqual([]);
    expect(await overflowOf(PHONE, body)).toEqual(['div right=600 past the viewport (360)']);
  });

  it('reports content cropped by an overflow:hidden box, and what the box holds no further', async () => {
    const found = await overflowOf(
      DESK,
      '<div id="caixa" style="width: 300px; overflow: hidden"><p style="width: 500px"><b>cortado</b></p></div>',
    );
    expect(found).toEqual(['p right=500 past div#caixa (300)']);
  });

  it('reports content past the viewport even when the page hides its sideways scroll', async () => {
    const found = await overflowOf(
      PHONE,
      '<main style="overflow-x: hidden"><section style="width: 400px">largo</section></main>',
    );
    expect(found).toEqual(['section right=400 past main (360)']);
    const page = await overflowOf(PHONE, '<div style="width: 500px">largo</div>');
    expect(page).toEqual(['div right=500 past the viewport (360)']);
  });

  it('lets visually hidden text, an ellipsis and a map cropping its tiles pass', async () => {
    const found = await overflowOf(
      DESK,
      `<span style="position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%)">
         <span style="display: inline-block; width: 200px">rótulo</span></span>
       <p style="width: 100px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis">
         <strong>um nome comprido demais para a caixa</strong></p>
       <section data-crop style="position: relative; width: 300px; height: 100px; overflow: hidden">
         <div style="position: absolute; left: 250px; width: 256px; height: 256px"></div></section>`,
    );
    expect(found).toEqual([]);
  });

  it('reports text cut with an ellipsis, and lets a label that fits pass', async () => {
    await browser.page.setViewportSize(PHONE);
    await browser.page.setContent(
      `<!doctype html><html lang="pt-BR"><body style="margin: 0">
         <nav><a><span style="display: block; width: 40px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis">Catálogo</span></a>
         <a><span style="display: block; width: 200px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis">Início</span></a></nav>
       </body></html>`,
    );
    expect((await auditScreen(browser.page)).truncated).toEqual(['"Catálogo" (span)']);
  });
});
