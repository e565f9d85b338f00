// What every screen must pass in a real browser, whatever it shows: every text readable
// (WCAG AA contrast, measured by axe-core's color-contrast rule on the rendered page, so the
// colours Pico and our CSS really produce are judged, not the ones we meant) and nothing
// wider than the screen (a phone must never scroll sideways).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface ScreenProblems {
  /** "text" (selector): 2.06:1 #777 on #dfe, one entry per element below 4.5:1 (3:1 for large text). */
  contrast: string[];
  /** Elements whose right edge passes the viewport, when the page scrolls sideways. */
  overflow: string[];
}

// The page's types are not loaded in the test project: the callbacks below run in the browser.
type AnyGlobal = typeof globalThis & Record<string, unknown>;

/**
 * Audits the screen as it is now. axe is evaluated through the DevTools protocol (not a
 * <script> tag), so the app's Content-Security-Policy needs no exception.
 */
export async function auditScreen(page: Page): Promise<ScreenProblems> {
  const hasAxe = await page.evaluate(() => 'axe' in globalThis);
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  const contrast = await page.evaluate(async () => {
    const g = globalThis as AnyGlobal & {
      axe: {
        run(ctx: unknown, opts: unknown): Promise<{ violations: { nodes: AxeNode[] }[] }>;
      };
    };
    type AxeNode = { target: string[]; any: { data?: Record<string, unknown> }[]; html: string };
    const doc = (g as unknown as { document: unknown }).document;
    const result = await g.axe.run(doc, {
      runOnly: { type: 'rule', values: ['color-contrast'] },
      resultTypes: ['violations'],
    });
    return result.violations.flatMap((v) =>
      v.nodes.map((n) => {
        const d = n.any[0]?.data ?? {};
        const text = n.html
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, 60);
        return `"${text}" (${n.target.join(' ')}): ${String(d.contrastRatio)}:1 ${String(d.fgColor)} on ${String(d.bgColor)}`;
      }),
    );
  });
  const overflow = await page.evaluate(() => {
    type El = {
      tagName: string;
      id: string;
      className: unknown;
      parentElement: El | null;
      children: ArrayLike<El>;
      getBoundingClientRect(): { right: number; width: number };
    };
    const g = globalThis as unknown as {
      document: { documentElement: { scrollWidth: number; clientWidth: number }; body: El };
      getComputedStyle(e: El): { overflowX: string; position: string };
    };
    const root = g.document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return [];
    const width = root.clientWidth;
    const found: string[] = [];
    // The outermost elements past the edge, skipping what sits inside a sideways scroller on
    // purpose (the funnel's columns): only the scroller itself must fit.
    const walk = (el: El) => {
      const style = g.getComputedStyle(el);
      const rect = el.getBoundingClientRect();
      if (rect.right > width + 0.5 && rect.width > 0) {
        const cls = typeof el.className === 'string' && el.className ? `.${el.className.split(' ').join('.')}` : '';
        found.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls} right=${Math.round(rect.right)}`);
        if (found.length > 8) return;
      }
      if (style.overflowX === 'auto' || style.overflowX === 'scroll' || style.overflowX === 'hidden') return;
      for (const child of Array.from(el.children)) walk(child);
    };
    walk(g.document.body);
    return found.length ? found : [`the page is ${root.scrollWidth}px wide in a ${width}px viewport`];
  });
  return { contrast, overflow };
}
