// The initial sync in a real browser at the medium fixture (20,000 products on 5 pautas, 2,000
// clients): headless Chromium (Debian's, at a phone's 360 px) from "Entrar" to a usable offline
// catalog — the catalog, opened at once, lists products as they land, and a product searched
// (the last one the server sends) shows with its price — then to every collection downloaded
// ("Sincronizado"); then the network is cut and the same search still answers. Reports the
// times, how responsive the page stayed (its long tasks while syncing) and the browser's memory.
// Target: a usable catalog in under 4 s.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import { writeProductImages } from '../../server/src/erp-fixture/images.ts';
import { launchBrowser } from '../support/chromium.ts';
import { chromiumCpuMs, ownCpuMs } from './cpu.ts';
import { table, writeSection } from './report.ts';
import { withBenchErp } from './setup.ts';
import { lastProductCode, serveBenchWeb } from './web.ts';

const TARGET_MS = 4_000;

/**
 * The product photos the catalog asks for while the first download runs (docs/pwa.md, "Product
 * photos"), logged in front of the server, which serves the fixture's drawn photos (drawn once
 * into a folder kept between runs: the fixture is the same every run, and drawing 18,000 photos
 * takes a while). BENCH_PHOTOS=0 answers 404 to every photo: the catalog with placeholders only,
 * to compare.
 */
function photoRoute() {
  const asked: number[] = [];
  const off = process.env.BENCH_PHOTOS === '0';
  const wrap =
    (app: (req: Request) => Response | Promise<Response>) =>
    async (req: Request): Promise<Response> => {
      if (!/^\/api\/v1\/catalog\/\d+\/image$/.test(new URL(req.url).pathname)) return app(req);
      asked.push(performance.now());
      if (off) {
        return Response.json(
          { type: 'about:blank', title: 'Não encontrado', status: 404, code: 'PRODUCT_IMAGE_NOT_FOUND' },
          { status: 404 },
        );
      }
      return app(req);
    };
  return { asked, off, wrap };
}

async function drawnPhotos(pool: pg.Pool): Promise<string> {
  const dir = join(tmpdir(), 'campo-bench-photos-medium');
  let shown = -1;
  const drawn = await writeProductImages(pool, dir, (done, total) => {
    const pct = Math.floor((100 * done) / total);
    if (pct % 10 !== 0 || pct === shown) return;
    shown = pct;
    process.stderr.write(`drawing the fixture's photos: ${pct} %\n`);
  });
  process.stderr.write(`photos: ${drawn.written} drawn, ${drawn.kept} kept from an earlier run\n`);
  return dir;
}

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
    const photos = photoRoute();
    const web = await serveBenchWeb(serverPool, who.idEmpresa, photos.wrap, await drawnPhotos(pool));
    const { server, url } = web;
    const lastCode = await lastProductCode(pool, who.idEmpresa);
    /** On the wire: the pull's pages this page receives, their encodings and their bytes as received. */
    const watchPulls = (page: Page) => {
      const pulls = { pages: 0, wire: 0, encodings: new Set<string>() };
      page.on('response', (res) => {
        if (!/\/api\/v1\/sync\/[a-z]+\/pull/.test(res.url())) return;
        pulls.pages++;
        pulls.encodings.add(res.headers()['content-encoding'] ?? 'none');
        void res
          .request()
          .sizes()
          .then((sizes) => {
            pulls.wire += sizes.responseBodySize;
          })
          .catch(() => undefined);
      });
      return pulls;
    };
    /**
     * Logs in from a fresh profile and times, from the click on "Entrar", the catalog listing its
     * first products, the search finding the last product sent, and "Sincronizado". With a
     * network, Chromium holds its requests to that speed and latency (DevTools' emulation).
     */
    const syncFromLogin = async (
      browser: Awaited<ReturnType<typeof launchBrowser>>,
      network?: { downKbps: number; upKbps: number; latencyMs: number },
    ) => {
      const page = browser.page;
      const pulls = watchPulls(page);
      await page.goto(`${url}/login`);
      await page.getByLabel('Login').fill('representative@bench.test');
      await page.getByLabel('Senha').fill('bench-password-1');
      if (network) {
        const cdp = await browser.context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: network.latencyMs,
          downloadThroughput: (network.downKbps * 1000) / 8,
          uploadThroughput: (network.upKbps * 1000) / 8,
        });
      }
      const cpu0 = chromiumCpuMs();
      const node0 = ownCpuMs();
      const started = performance.now();
      await page.getByRole('button', { name: 'Entrar' }).click();
      // As a person would: the nav link as soon as it shows, not a reload (which would reopen the store).
      await page
        .getByRole('navigation', { name: 'Navegação principal' })
        .getByRole('link', { name: 'Catálogo' })
        .click({ timeout: 600_000 });
      await page.getByRole('list', { name: 'Produtos' }).getByRole('listitem').first().waitFor({ timeout: 300_000 });
      const listed = performance.now() - started;
      await page.getByLabel('Buscar produto').fill(lastCode);
      await page.getByRole('list', { name: 'Produtos' }).getByText(lastCode).first().waitFor({ timeout: 300_000 });
      const usable = performance.now() - started;
      const photosUntilUsable = photos.asked.filter((t) => t >= started && t - started <= usable).length;
      // Share of a core each kind of process used until the catalog was usable.
      const used: [string, number][] = [...chromiumCpuMs()].map(([kind, ms]) => [
        `Chromium ${kind}`,
        ms - (cpu0.get(kind) ?? 0),
      ]);
      used.push(['this process (API server and bench)', ownCpuMs() - node0]);
      const cpu = used
        .filter(([, ms]) => ms > 0)
        .sort((a, b) => b[1] - a[1])
        .map(([kind, ms]) => `${kind} ${Math.round((ms / usable) * 100)} %`)
        .join(', ');
      await page
        .getByRole('status', { name: 'Sincronização' })
        .getByText(/Sincronizado/)
        .waitFor({ timeout: 600_000 });
      const synced = performance.now() - started;
      // The first thumbnail shown in the list.
      if (!photos.off) {
        await page
          .getByRole('list', { name: 'Produtos' })
          .locator('.product-photo[data-photo="loaded"]')
          .first()
          .waitFor({ timeout: 120_000 });
      }
      const photoShown = photos.off ? Number.NaN : performance.now() - started;
      const firstPhoto = (photos.asked.find((t) => t >= started) ?? Number.NaN) - started;
      process.stderr.write(
        `${network ? 'mobile network: ' : ''}catalog listed ${listed.toFixed(0)} ms, usable ${usable.toFixed(0)} ms, synced ${synced.toFixed(0)} ms\n`,
      );
      return { listed, usable, synced, cpu, pulls, photosUntilUsable, firstPhoto, photoShown };
    };

    // On a phone's mobile network (the same medium fixture): DevTools' "Fast 4G" speeds.
    const MOBILE = { downKbps: 9_000, upKbps: 1_500, latencyMs: 60 };
    const mobileBrowser = await launchBrowser();
    let mobile: Awaited<ReturnType<typeof syncFromLogin>>;
    try {
      mobile = await syncFromLogin(mobileBrowser, MOBILE);
    } finally {
      await mobileBrowser.close();
    }

    const browser = await launchBrowser();
    try {
      const page = browser.page;
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') process.stderr.write(`[browser ${m.type()}] ${m.text()}\n`);
      });
      // Long tasks (50 ms or more on the main thread): what a tap would wait for during the sync.
      await page.addInitScript({
        content: `window.__longTasks = [];
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) window.__longTasks.push(e.duration);
          }).observe({ type: 'longtask', buffered: true });`,
      });
      // BENCH_PROFILE=<file>: a Chromium CPU profile of the sync (Chrome DevTools opens it).
      const profiler = process.env.BENCH_PROFILE ? await browser.context.newCDPSession(page) : null;
      if (profiler) {
        await profiler.send('Profiler.enable');
        await profiler.send('Profiler.setSamplingInterval', { interval: 500 });
        await profiler.send('Profiler.start');
      }
      const { listed, usable, synced, cpu, pulls, photosUntilUsable, firstPhoto, photoShown } =
        await syncFromLogin(browser);
      if (profiler && process.env.BENCH_PROFILE) {
        const { profile } = (await profiler.send('Profiler.stop')) as { profile: unknown };
        writeFileSync(process.env.BENCH_PROFILE, JSON.stringify(profile));
        await profiler.detach();
      }
      const longTasks = (await page.evaluate('window.__longTasks')) as number[];
      const blocking = longTasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0);
      const longest = longTasks.reduce((m, d) => Math.max(m, d), 0);
      process.stderr.write(
        `long tasks (ms): ${[...longTasks]
          .sort((a, b) => b - a)
          .map((d) => d.toFixed(0))
          .join(' ')}\n`,
      );
      // Offline for real: the server stops answering and the page goes offline; the search runs again.
      // The reload needs the app's worker in control (on a busy machine its precache may still run).
      await page.waitForFunction(
        () =>
          (globalThis as { navigator?: { serviceWorker?: { controller: unknown } } }).navigator?.serviceWorker
            ?.controller,
        undefined,
        { timeout: 60_000 },
      );
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await browser.context.setOffline(true);
      const reloaded = performance.now();
      await page.reload();
      await page.getByLabel('Buscar produto').fill(lastCode);
      await page.getByRole('list', { name: 'Produtos' }).getByText(lastCode).first().waitFor({ timeout: 120_000 });
      // The store reopened and the search's index loaded from it (20,000 products).
      const offline = performance.now() - reloaded;
      const cdp = await browser.context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const metrics = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      const heap = metrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
      const rss = chromiumRss();
      const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
      const mib1 = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
      const body = [
        'Command: `pnpm bench browser-sync` (the `medium` fixture; the built app served by the API server in-process;',
        "Debian's Chromium headless at 360 × 740 with a fresh profile; a representative with 2,000 clients; all",
        'eight collections downloaded). Timed from the click on "Entrar"; the catalog is opened at once and searched for',
        'the product the server sends last. Target: a usable offline catalog in under 4 s. Then once more from a fresh',
        'profile on an emulated mobile network (Chromium\'s DevTools throttling, the speeds of its "Fast 4G").',
        'The catalog shows product thumbnails as it lists (only the rows on screen ask; docs/pwa.md, "Product',
        `photos": the fixture's drawn photos, resized by the server)${photos.off ? ', here answered 404 (BENCH_PHOTOS=0): placeholders only' : ''}.`,
        '',
        table(
          ['measure', 'figure'],
          [
            ['to the catalog listing its first products', `${(listed / 1000).toFixed(1)} s`],
            [
              'to the catalog search finding the last product sent (usable catalog)',
              `${(usable / 1000).toFixed(1)} s (${usable < TARGET_MS ? 'target met' : 'target missed'})`,
            ],
            ['to "Sincronizado" (every collection downloaded)', `${(synced / 1000).toFixed(1)} s`],
            [
              'product thumbnails: first one served, photos asked until the catalog was usable, the searched one shown',
              `${(firstPhoto / 1000).toFixed(1)} s, ${photosUntilUsable}, ${(photoShown / 1000).toFixed(1)} s`,
            ],
            ['CPU until the catalog is usable, as a share of one core (the machine has 2)', cpu],
            [
              'long tasks until then: count, longest, total blocking time',
              `${longTasks.length}, ${longest.toFixed(0)} ms, ${(blocking / 1000).toFixed(1)} s`,
            ],
            ['offline, after a reload: the same search answers in', `${(offline / 1000).toFixed(1)} s`],
            [
              'pull pages on the wire: count, encoding, bytes received',
              `${pulls.pages}, ${[...pulls.encodings].join(' and ')}, ${mib1(pulls.wire)}`,
            ],
            [
              `on a mobile network (${MOBILE.downKbps / 1000} Mbit/s down, ${MOBILE.upKbps / 1000} up, ${MOBILE.latencyMs} ms latency): usable catalog, "Sincronizado"`,
              `${(mobile.usable / 1000).toFixed(1)} s, ${(mobile.synced / 1000).toFixed(1)} s (${mobile.pulls.pages} pages, ${[...mobile.pulls.encodings].join(' and ')}, ${mib1(mobile.pulls.wire)})`,
            ],
            ['page JS heap (after the offline search)', mib(heap)],
            ['Chromium resident memory, all processes', mib(rss)],
          ],
        ),
      ].join('\n');
      writeSection('browser-sync', 'Initial sync in the browser (medium fixture)', body);
      process.stdout.write(`${body}\n`);
    } finally {
      await browser.close();
      await web.close();
    }
  });
}
