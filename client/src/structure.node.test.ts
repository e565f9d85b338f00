// The client's layers (docs/pwa.md, "Layers"), checked over its source: a file imports only
// from its own layer or the ones below it, a screen never reaches into app/, and a screen's
// folder is its own: what two screens share lives in kit/ or data/. Tests may assemble layers
// (a store test with the search index), so only the screens rule applies to them. It reads
// the files with node:fs, so tsconfig.node.json types it, not the app's tsconfig.json.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

/** Top to bottom; a folder (or a file at the top of src/) sits in exactly one layer. */
const LAYERS: readonly (readonly string[])[] = [
  ['main.tsx', 'sw.ts'],
  ['app'],
  ['screens'],
  ['kit', 'pdf', 'push'],
  ['data'],
  ['db'],
  ['session'],
  [
    'routes.ts',
    'api.ts',
    'api-schema.d.ts',
    'pwa.ts',
    'error-reporting.ts',
    'push-payload.ts',
    'globals.d.ts',
    'app.css',
  ],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

const files = sources(SRC).map((path) => ({
  path,
  name: relative(SRC, path).split(sep).join('/'),
  text: readFileSync(path, 'utf8'),
}));

/** Every module a file names: static imports, side-effect imports, re-exports and dynamic imports. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)) {
    if (m[1]) found.push(m[1]);
  }
  return found;
}

/** The files of src/ each file imports, as paths below src/ ('screens/pedidos/cart.tsx'). */
const imports = files.map((f) => ({
  ...f,
  targets: specifiers(f.text)
    .filter((s) => s.startsWith('.'))
    .map((s) =>
      relative(SRC, resolve(dirname(f.path), s))
        .split(sep)
        .join('/'),
    ),
}));

const isTest = (name: string) => name.endsWith('.test.ts');
const unitOf = (name: string) => name.split('/')[0] ?? name;
const layerOf = (name: string) => LAYERS.findIndex((layer) => layer.includes(unitOf(name)));
const screenOf = (name: string) => (name.startsWith('screens/') ? name.split('/')[1] : undefined);

/**
 * The circles among the source's files (tests apart), each as its files in import order: the
 * strongly connected components of the import graph with more than one file (Tarjan). A type
 * import counts: a circle through a type still ties the files' meaning together.
 */
function circles(): string[][] {
  const graph = new Map(imports.filter((f) => !isTest(f.name)).map((f) => [f.name, f.targets]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component = stack.splice(stack.indexOf(v));
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('client structure', () => {
  it('reads the source it checks', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(imports.filter((f) => f.targets.some((t) => t.startsWith('kit/'))).length).toBeGreaterThan(20);
  });

  it('places every folder and top-level file of src/ in a layer', () => {
    const names = [
      ...new Set([...files.filter((f) => !isTest(f.name)).map((f) => f.name), ...imports.flatMap((f) => f.targets)]),
    ];
    const placed = names.filter((n) => !n.startsWith('..')).filter((n) => layerOf(n) < 0);
    expect(placed).toEqual([]);
  });

  it('imports only from its own layer or a lower one', () => {
    const upward = imports
      .filter((f) => !isTest(f.name))
      .flatMap((f) =>
        f.targets
          .filter((t) => t.startsWith('..') || layerOf(t) < layerOf(f.name))
          .map((t) => `${f.name} imports ${t}`),
      );
    expect(upward).toEqual([]);
  });

  it('has no circle of imports, of any length, within a layer or across', () => {
    expect(circles()).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    // The check itself: a made-up circle of three files through a type is found.
    const saved = imports.length;
    imports.push(
      { path: '', name: 'db/x.ts', text: '', targets: ['db/y.ts'] },
      { path: '', name: 'db/y.ts', text: '', targets: ['db/z.ts'] },
      { path: '', name: 'db/z.ts', text: '', targets: ['db/x.ts'] },
    );
    try {
      expect(circles()).toContainEqual(['db/x.ts', 'db/y.ts', 'db/z.ts']);
    } finally {
      imports.length = saved;
    }
  });

  it('keeps screens out of app/', () => {
    const intoApp = imports
      .filter((f) => f.name.startsWith('screens/'))
      .flatMap((f) => f.targets.filter((t) => t.startsWith('app/')).map((t) => `${f.name} imports ${t}`));
    expect(intoApp).toEqual([]);
  });

  it("keeps each screen's folder to itself", () => {
    const crossings = imports.flatMap((f) => {
      const own = screenOf(f.name);
      if (!own) return [];
      return f.targets
        .filter((t) => screenOf(t) !== undefined && screenOf(t) !== own)
        .map((t) => `${f.name} imports ${t}`);
    });
    expect(crossings).toEqual([]);
  });
});
