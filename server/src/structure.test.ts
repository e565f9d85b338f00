// Rules of docs/ARCHITECTURE.md that no type checker sees, checked over the server's source:
// a domain's queries.ts is private to its folder, db/ and http/ import nothing above them, and
// role checks live in auth/authorize.ts.
// (Biome's noRestrictedImports says the first one while editing; this test also covers
// dynamic imports and re-exports, and the second rule.)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const files = sources(SRC).map((path) => ({ path, name: relative(SRC, path), text: readFileSync(path, 'utf8') }));

/** Every module a file names: static imports, re-exports and dynamic imports. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)) {
    if (m[1]) found.push(m[1]);
  }
  return found;
}

describe('server structure', () => {
  it('reads the source it checks', () => {
    expect(files.length).toBeGreaterThan(100);
    const ownQueries = files.filter((f) => specifiers(f.text).includes('./queries.ts'));
    expect(ownQueries.length).toBeGreaterThan(10);
  });

  it("keeps each domain's queries.ts private to its folder", () => {
    const crossings = files.flatMap((f) =>
      specifiers(f.text)
        .filter((s) => s.startsWith('.'))
        .map((s) => resolve(dirname(f.path), s))
        .filter((target) => /[\\/]queries(\.ts)?$/.test(target) && dirname(target) !== dirname(f.path))
        .map((target) => `${f.name} imports ${relative(SRC, target)}`),
    );
    expect(crossings).toEqual([]);
  });

  it('keeps db/ at the bottom and http/ below auth/ and the domains', () => {
    // db (bottom) <- http <- auth <- domains; the top-level modules (errors, log, metrics) are leaves.
    const below: Record<string, string[]> = { db: ['db'], http: ['db', 'http'] };
    const upward = files
      .filter((f) => !f.name.endsWith('.test.ts'))
      .flatMap((f) => {
        const layer = relative(SRC, f.path).split(/[\\/]/)[0] as string;
        const allowed = below[layer];
        if (!allowed) return [];
        return specifiers(f.text)
          .filter((s) => s.startsWith('.'))
          .map((s) => relative(SRC, resolve(dirname(f.path), s)).split(/[\\/]/))
          .filter((parts) => parts.length > 1 && !parts[0]?.startsWith('..') && !allowed.includes(parts[0] as string))
          .map((parts) => `${f.name} imports ${parts.join('/')}`);
      });
    expect(upward).toEqual([]);
  });

  it('asks auth/authorize.ts about roles instead of comparing them', () => {
    const roleTest =
      /\.role\s*[!=]==|[!=]==\s*[\w.]+\.role\b|switch\s*\(\s*[\w.]+\.role\s*\)|\.includes\(\s*[\w.()']+\.role\s*\)|\brequireRole\b/;
    const allowed = new Set(['auth/authorize.ts']);
    const scattered = files
      .filter((f) => !f.name.endsWith('.test.ts') && !allowed.has(f.name.replaceAll('\\', '/')))
      .flatMap((f) =>
        f.text
          .split('\n')
          .map((line, i) => ({ line, i }))
          .filter(({ line }) => roleTest.test(line))
          .map(({ i }) => `${f.name}:${i + 1}`),
      );
    expect(scattered).toEqual([]);
  });
});
