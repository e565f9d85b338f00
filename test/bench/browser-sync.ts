// The initial sync in a real browser at the medium fixture (20,000 products on 5 pautas, 2,000
// clients): headless Chromium (Debian's, at a phone's 360 px) from "Entrar" to a usable offline
// catalog — the header says the device is synced, and a product searched in the catalog shows
// with its price — then the network is cut and the same search still answers. Reports the time
// and the browser's memory (JS heap of the page, and the resident memory of all Chromium
// processes). Target: under 10 s.
import { execFileSync } from 'node:child_process';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from '../../server/src/app.ts';
import { launchBrowser } from '../support/chromium.ts';
import { table, writeSection } from './report.ts';
import { BENCH_JWT_SECRET, withBenchErp } from './setup.ts';

const TARGET_MS = 10_000;
const WEB_ROOT = fileURLToPath(new URL('../../client/dist/', import.meta.url));

/** Resident memory of Chromium's processes (browser, renderers, GPU/utility), from ps. */
function chromiumRss(): number {
  const out = execFileSync('ps', ['-C', 'chromium', '-o', 'rss='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => Number.isFinite(n))
    .reduce((s, kb) => s + kb * 1024, 0);
}

export async function benchBrowserSync(): Promise<void> {
  await withBenchErp('medium', async ({ serverPool, token, pool, who }) => {
    await token('representative');
    const app = createApp({
      pool: serverPool,
      webRoot: WEB_ROOT,
      config: { jwtSecret: BENCH_JWT_SECRET, tokenTtlHours: 1, devLogin: false },
    });
    const server = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
      s.once('listening', () => resolve(s));
    });
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const { rows } = await pool.query<{ cod: string }>(
      `select p.cod_produto as cod from app.vw_produtos p where p.id_empresa = $1 and p.ativo
        order by p.id_produto desc limit 1`,
      [who.idEmpresa],
    );
    const lastCode = rows[0]?.cod ?? '';
    const browser = await launchBrowser();
    try {
      const page = browser.page;
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') process.stderr.write(`[browser ${m.type()}] ${m.text()}\n`);
      });
      await page.goto(`${url}/login`);
      await page.getByLabel('Login').fill('representative@bench.test');
      await page.getByLabel('Senha').fill('bench-password-1');
      const started = performance.now();
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page
        .getByRole('status', { name: 'Sincronização' })
        .getByText(/Sincronizado/)
        .waitFor({ timeout: 600_000 });
      const synced = performance.now() - started;
      // As a person would: the nav link, not a reload (which would reopen the store).
      await page
        .getByRole('navigation', { name: 'Navegação principal' })
        .getByRole('link', { name: 'Catálogo' })
        .click();
      await page.getByRole('list', { name: 'Produtos' }).getByRole('listitem').first().waitFor({ timeout: 300_000 });
      const listed = performance.now() - started;
      process.stderr.write(`synced ${synced.toFixed(0)} ms, catalog listed ${listed.toFixed(0)} ms\n`);
      await page.getByLabel('Buscar produto').fill(lastCode);
      await page.getByRole('list', { name: 'Produtos' }).getByText(lastCode).first().waitFor({ timeout: 120_000 });
      const usable = performance.now() - started;
      // Offline for real: the server stops answering and the page goes offline; the search runs again.
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await browser.context.setOffline(true);
      await page.reload();
      await page.getByLabel('Buscar produto').fill(lastCode);
      await page.getByRole('list', { name: 'Produtos' }).getByText(lastCode).first().waitFor({ timeout: 120_000 });
      const cdp = await browser.context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const metrics = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      const heap = metrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
      const rss = chromiumRss();
      const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
      const body = [
        'Command: `pnpm bench browser-sync` (the `medium` fixture; the built app served by the API server in-process;',
        "Debian's Chromium headless at 360 × 740 with a fresh profile; a representative with 2,000 clients; all",
        'eight collections downloaded). Timed from the click on "Entrar". Target: a usable offline catalog in under 10 s.',
        '',
        table(
          ['measure', 'figure'],
          [
            ['to "Sincronizado" (every collection downloaded)', `${(synced / 1000).toFixed(1)} s`],
            ['to the catalog listing its first products', `${(listed / 1000).toFixed(1)} s`],
            [
              'to the catalog search answering',
              `${(usable / 1000).toFixed(1)} s (${usable < TARGET_MS ? 'target met' : 'target missed'})`,
            ],
            ['offline, after a reload: the same search', 'answers'],
            ['page JS heap (after the offline search)', mib(heap)],
            ['Chromium resident memory, all processes', mib(rss)],
          ],
        ),
      ].join('\n');
      writeSection('browser-sync', 'Initial sync in the browser (medium fixture)', body);
      process.stdout.write(`${body}\n`);
    } finally {
      await browser.close();
      if (server.listening) await new Promise<void>((r) => server.close(() => r()));
    }
  });
}
