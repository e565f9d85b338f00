// Debian's Chromium driven by playwright-core, with no test-runner dependency, so both the
// browser tests and the benchmarks (test/bench) launch it the same way.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Debian's Chromium with a fresh profile: no service worker, cache or storage from an earlier
 * run, and nothing that would reach the internet on its own.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (.ci/run does it), or set CHROMIUM_PATH`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'campo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    locale: 'pt-BR',
    viewport: { width: 360, height: 740 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Chromium reports a fixed quota (usage plus 10 GiB) and then ignores the DevTools
      // protocol's Storage.overrideQuotaForOrigin, with which the sync screen's test fills the disk.
      '--disable-features=StaticStorageQuota',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
