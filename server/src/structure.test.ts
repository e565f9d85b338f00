// Rules of docs/ARCHITECTURE.md that no type checker sees, checked over the server's source:
// a domain's queries.ts is private to its folder, role checks live in auth/authorize.ts, and
// imports run down the layers of the server, never up and never in a circle. (Biome's
// noRestrictedImports says the first one while editing; this test also covers dynamic
// imports and re-exports, and the other rules.)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SYNC_SERVED } from '@campo/shared';
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

/**
 * The layers of the server (docs/ARCHITECTURE.md, "Layers of the server"): a file may import
 * its own layer and those below, never one above. Each folder and root file of server/src has
 * one; a file named here sits in another layer than its folder.
 */
const LAYERS: Record<string, number> = {
  // The ground: the database, configuration, errors, logs and metrics.
  db: 0,
  'config.ts': 0,
  'errors.ts': 0,
  'log.ts': 0,
  'metrics.ts': 0,
  'sql-files.ts': 0,
  'version.ts': 0,
  // The push keys' checks, pure: the configuration reads them.
  'notifications/vapid.ts': 0,
  http: 1,
  auth: 2,
  // The change log the domains write: revisions, announcements, refusals, the push answer and
  // the collection definition's type.
  changelog: 3,
  // The domains. They may import one another, never in a circle.
  catalog: 4,
  'client-errors': 4,
  clients: 4,
  company: 4,
  dashboards: 4,
  directory: 4,
  flex: 4,
  funnel: 4,
  health: 4,
  notifications: 4,
  orders: 4,
  policies: 4,
  targets: 4,
  tickets: 4,
  users: 4,
  visits: 4,
  // Replication: the registry of the domains' collections, pull, push and the change stream.
  sync: 5,
  // What assembles and runs the server.
  'app.ts': 6,
  cli: 6,
  demo: 6,
  'erp-fixture': 6,
  // The database types' generator, a developer's tool: it provisions a scratch database.
  codegen: 6,
  provisioning: 6,
  web: 6,
};

const slashed = (name: string) => name.replaceAll('\\', '/');
const folderOf = (name: string) => (name.includes('/') ? name.slice(0, name.indexOf('/')) : name);
const layerOf = (name: string): number | undefined => LAYERS[name] ?? LAYERS[folderOf(name)];

/** Every import between two files of the server's source, tests apart (they exercise the layers together). */
const arrows = files
  .filter((f) => !f.name.endsWith('.test.ts'))
  .flatMap((f) =>
    specifiers(f.text)
      .filter((s) => s.startsWith('.'))
      .map((s) => ({ from: slashed(f.name), to: slashed(relative(SRC, resolve(dirname(f.path), s))) }))
      .filter(({ to }) => !to.startsWith('..')),
  );
const arrowName = ({ from, to }: { from: string; to: string }) => `${from} → ${to}`;

/** Pairs of units (folders, or files) that import each other, with the imports each way. */
function cycles(unitOf: (name: string) => string, candidates: typeof arrows): string[] {
  const between = new Map<string, string[]>();
  for (const a of candidates) {
    const key = `${unitOf(a.from)} → ${unitOf(a.to)}`;
    between.set(key, [...(between.get(key) ?? []), arrowName(a)]);
  }
  const found: string[] = [];
  for (const [key, imports] of between) {
    const [from, to] = key.split(' → ') as [string, string];
    const back = between.get(`${to} → ${from}`);
    if (from < to && back) found.push(`${from} ↔ ${to}: ${[...imports, ...back].join(', ')}`);
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

  it('keeps test support out of the source: no source file imports test/ or a test runner', () => {
    // Test helpers live beside the tests (test/support/); a source file that imports them, or
    // vitest, would ship them or break the build that leaves them out.
    const TEST_DIR = resolve(SRC, '../../test');
    const intoTests = files
      .filter((f) => !f.name.endsWith('.test.ts'))
      .flatMap((f) =>
        specifiers(f.text)
          .filter((s) =>
            s.startsWith('.')
              ? `${resolve(dirname(f.path), s)}/`.startsWith(`${TEST_DIR}/`)
              : /^(vitest|@vitest\/)/.test(s),
          )
          .map((s) => `${slashed(f.name)} imports ${s}`),
      );
    expect(intoTests).toEqual([]);
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

  describe('layers', () => {
    it('gives every folder and root file of the source a layer', () => {
      const unplaced = files
        .map((f) => slashed(f.name))
        .filter((n) => !n.endsWith('.test.ts') && layerOf(n) === undefined);
      expect(unplaced).toEqual([]);
      expect(arrows.length).toBeGreaterThan(500);
    });

    it('imports only from its own layer or one below', () => {
      const upward = arrows
        .filter((a) => (layerOf(a.from) ?? 0) < (layerOf(a.to) ?? 0))
        .map((a) => `${arrowName(a)} (layer ${layerOf(a.from)} imports layer ${layerOf(a.to)})`);
      expect(upward).toEqual([]);
    });

    it('has no two folders that import each other', () => {
      const crossing = arrows.filter((a) => folderOf(a.from) !== folderOf(a.to));
      expect(cycles(folderOf, crossing)).toEqual([]);
    });

    it('has no two files that import each other', () => {
      expect(cycles((name) => name, arrows)).toEqual([]);
    });

    it('names no collection in the sync layer: it reads their definitions', () => {
      const names = new RegExp(`['"\`](${SYNC_SERVED.join('|')})['"\`]`);
      const named = files
        .filter((f) => slashed(f.name).startsWith('sync/') && !f.name.endsWith('.test.ts'))
        .flatMap((f) =>
          f.text
            .split('\n')
            .map((line, i) => ({ line, i }))
            .filter(({ line }) => names.test(line) && !line.trimStart().startsWith('//'))
            .map(({ i }) => `${slashed(f.name)}:${i + 1}`),
        );
      expect(named).toEqual([]);
    });
  });
});
