// What every screen must pass in a real browser, whatever it shows: every text readable
// (WCAG AA contrast, measured by axe-core's color-contrast rule on the rendered page, so the
// colours Pico and our CSS really produce are judged, not the ones we meant) and nothing
// wider than the screen (a phone must never scroll sideways) or cut off by a box around it
// (a table wider than its box on a desk), except inside a box meant to scroll sideways, and
// no text cut with an ellipsis (a tab that reads "Catálo…", a name cut in the header).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface ScreenProblems {
  /** "text" (selector): 2.06:1 #777 on #dfe, one entry per element below 4.5:1 (3:1 for large text). */
  contrast: string[];
  /**
   * Elements past the viewport's right edge, or cut off by an ancestor's box (overflow hidden,
   * clip, auto or scroll) that is not meant to scroll sideways, outermost first.
   */
  overflow: string[];
  /**
   * Text cut with an ellipsis ("Catálo…"): "text" (element), one entry per element whose text
   * is wider than its box while the box says text-overflow: ellipsis. A label must fit whole.
   */
  truncated: string[];
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
      clientLeft: number;
      clientWidth: number;
      children: ArrayLike<El>;
      hasAttribute(name: string): boolean;
      getBoundingClientRect(): { left: number; right: number; width: number };
    };
    type Style = { display: string; overflowX: string; position: string; textOverflow: string };
    const g = globalThis as unknown as {
      document: { documentElement: { scrollWidth: number; clientWidth: number }; body: El };
      getComputedStyle(e: El): Style;
    };
    const root = g.document.documentElement;
    const width = root.clientWidth;
    // Pico's breakpoint, where the app's layout turns from a phone's to a desk's.
    const phone = width < 768;
    const found: string[] = [];
    const label = (el: El) => {
      const cls =
        typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls}`;
    };
    // A box meant to scroll sideways, so only the box itself must fit: one marked so at every
    // width (the funnel's board, the orders' filter chips), or, on a phone only, the box of a
    // table, which scrolls there rather than squeeze its columns. On a desk a table must fit:
    // its scroll bar hides until touched, so a column past the box looks cut off.
    const scrollsOnPurpose = (el: El, style: Style) =>
      (style.overflowX === 'auto' || style.overflowX === 'scroll') &&
      (el.hasAttribute('data-scroll-x') || (phone && el.children.length === 1 && el.children[0]?.tagName === 'TABLE'));
    // The outermost elements that run past the viewport's right edge (whether the page then
    // scrolls sideways or the overflow is hidden) or past the box of an ancestor that clips
    // them (overflow hidden, clip, auto or scroll), unless that box scrolls on purpose.
    const walk = (el: El, clip: { left: number; right: number; by: string }) => {
      if (found.length > 8) return;
      const style = g.getComputedStyle(el);
      if (style.display === 'none') return;
      const rect = el.getBoundingClientRect();
      // A fixed element is placed by the viewport, out of its ancestors' boxes.
      if (style.position === 'fixed') clip = { left: Number.NEGATIVE_INFINITY, right: width, by: 'the viewport' };
      if (rect.width > 0 && (rect.right > clip.right + 0.5 || rect.left < clip.left - 0.5)) {
        found.push(`${label(el)} right=${Math.round(rect.right)} past ${clip.by} (${Math.round(clip.right)})`);
        return;
      }
      if (style.overflowX !== 'visible') {
        // Visually hidden (1 px, read by screen readers), cut with an ellipsis, cropped on
        // purpose (a map's tiles: data-crop) or scrolled on purpose: what is inside may pass.
        if (rect.width <= 1 || style.textOverflow === 'ellipsis' || el.hasAttribute('data-crop')) return;
        if (scrollsOnPurpose(el, style)) return;
        const left = rect.left + el.clientLeft;
        clip = {
          left: Math.max(clip.left, left),
          right: Math.min(clip.right, left + el.clientWidth),
          by: label(el),
        };
      }
      for (const child of Array.from(el.children)) walk(child, clip);
    };
    walk(g.document.body, { left: Number.NEGATIVE_INFINITY, right: width, by: 'the viewport' });
    if (found.length === 0 && root.scrollWidth > width) {
      found.push(`the page is ${root.scrollWidth}px wide in a ${width}px viewport`);
    }
    return found;
  });
  const truncated = await page.evaluate(() => {
    type El = {
      tagName: string;
      id: string;
      className: unknown;
      textContent: string | null;
      scrollWidth: number;
      clientWidth: number;
    };
    const g = globalThis as unknown as {
      document: { querySelectorAll(s: string): ArrayLike<El> };
      getComputedStyle(e: El): { display: string; textOverflow: string; visibility: string };
    };
    const found: string[] = [];
    for (const el of Array.from(g.document.querySelectorAll('body *'))) {
      const style = g.getComputedStyle(el);
      if (style.textOverflow !== 'ellipsis' || style.display === 'none' || style.visibility === 'hidden') continue;
      // Widths are rounded to whole pixels: one pixel more is a rounding, not a cut.
      if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
        const cls =
          typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
        const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
        found.push(`"${text}" (${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls})`);
      }
    }
    return found;
  });
  return { contrast, overflow, truncated };
}
