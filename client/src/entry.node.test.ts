// The login page evaluates only what it needs: on a cheap phone (CPU slowed 4×, `pnpm bench
// cheap-phone`) evaluating zod and every contract at the app's start took a task of about 400 ms
// before anyone logged in. This walks the static imports from main.tsx (type-only imports and
// import() excluded, as the bundler does) and fails when one reaches a module the start must
// leave to the screens and the local store.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLIENT_SRC = dirname(fileURLToPath(import.meta.url));
const SHARED_SRC = resolve(CLIENT_SRC, '../../shared/src');
const HEAVY = ['zod', 'rxdb', 'dexie', 'jspdf', 'chart.js'];

/** Value imports and re-exports of a module (not `import type`, not `import()`). */
function valueImports(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
    if (!m[1] && m[2]) found.push(m[2]);
  }
  return found;
}

function resolveImport(from: string, spec: string): string | null {
  if (spec === '@campo/shared') return join(SHARED_SRC, 'index.ts');
  if (spec.startsWith('@campo/shared/')) return join(SHARED_SRC, `${spec.slice('@campo/shared/'.length)}.ts`);
  if (spec.startsWith('.')) return resolve(dirname(from), spec);
  return null;
}

/** Every package the app's start reaches, with the chain of files that reaches it. */
function packagesFromEntry(): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!/\.tsx?$/.test(file) || !existsSync(file)) return;
    for (const spec of valueImports(readFileSync(file, 'utf8'))) {
      const target = resolveImport(file, spec);
      const here = [...chain, relative(CLIENT_SRC, file)];
      if (target) walk(target, here);
      else if (!packages.has(spec)) packages.set(spec, here);
    }
  };
  walk(join(CLIENT_SRC, 'main.tsx'), []);
  return packages;
}

describe("the app's start", () => {
  const packages = packagesFromEntry();

  it('reads the imports it checks', () => {
    expect(packages.has('preact')).toBe(true);
    expect(packages.has('@preact/signals')).toBe(true);
  });

  it('leaves zod, the local store, PDF and charts to what needs them', () => {
    const heavy = [...packages].filter(([spec]) => HEAVY.some((h) => spec === h || spec.startsWith(`${h}/`)));
    expect(heavy.map(([spec, chain]) => `${spec} via ${chain.join(' → ')}`)).toEqual([]);
  });
});
