// `pnpm bundle-size`: what a phone downloads to open the app the first time, from client/dist
// (run `pnpm -F @campo/client build` first). Initial = the scripts, module preloads and
// stylesheets index.html names; lazy chunks load later and are listed apart. Sizes are gzip
// level 9, as a server or CDN would send them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { writeSection } from './report.ts';

const DIST = fileURLToPath(new URL('../../client/dist/', import.meta.url));

/** The table of what the first visit downloads; throws when the app is not built. */
export function bundleReport(): { table: string; initialJsGzip: number } {
  if (!existsSync(join(DIST, 'index.html'))) {
    throw new Error(`no ${DIST}index.html: run \`pnpm -F @campo/client build\` first`);
  }

  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const initial = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="\/([^"]+\.(?:js|css))"/g)) {
    if (m[1]) initial.add(m[1]);
  }

  function files(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [relative(DIST, path)];
    });
  }

  interface Row {
    file: string;
    raw: number;
    gzip: number;
  }
  const measure = (file: string): Row => {
    const bytes = readFileSync(join(DIST, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
  const sum = (rows: Row[], key: 'raw' | 'gzip') => rows.reduce((t, r) => t + r[key], 0);

  const all = files(DIST).filter((f) => /\.(js|css)$/.test(f) && f !== 'sw.js');
  const first = all.filter((f) => initial.has(f)).map(measure);
  const later = all.filter((f) => !initial.has(f)).map(measure);
  const sw = measure('sw.js');

  const lines = ['file | raw | gzip', '--- | --- | ---'];
  for (const r of first) lines.push(`${r.file} | ${kb(r.raw)} | ${kb(r.gzip)}`);
  const js = first.filter((r) => r.file.endsWith('.js'));
  const css = first.filter((r) => r.file.endsWith('.css'));
  lines.push(`initial JS | ${kb(sum(js, 'raw'))} | ${kb(sum(js, 'gzip'))}`);
  lines.push(`initial CSS | ${kb(sum(css, 'raw'))} | ${kb(sum(css, 'gzip'))}`);
  if (later.length) lines.push(`lazy chunks (${later.length}) | ${kb(sum(later, 'raw'))} | ${kb(sum(later, 'gzip'))}`);
  lines.push(`service worker | ${kb(sw.raw)} | ${kb(sw.gzip)}`);
  return { table: lines.join('\n'), initialJsGzip: sum(js, 'gzip') };
}

// Run as `pnpm bundle-size`: print the table.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.stdout.write(`${bundleReport().table}\n`);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
}

/** `pnpm bench bundle`: builds the app and records the table in docs/benchmarks.md. */
export async function benchBundle(): Promise<void> {
  const { execFileSync } = await import('node:child_process');
  execFileSync('pnpm', ['-F', '@campo/client', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const { table, initialJsGzip } = bundleReport();
  const body = [
    'Command: `pnpm bench bundle` (builds the app, then gzips at level 9 what `client/dist/index.html` loads first;',
    'screens load later as lazy chunks, all precached by the service worker). Target: initial JS under 250 KB gzipped.',
    '',
    table.replace('file | raw | gzip', '| file | raw | gzip |').replace('--- | --- | ---', '| --- | --- | --- |'),
    '',
    `Initial JS gzipped: ${(initialJsGzip / 1024).toFixed(1)} kB (${initialJsGzip < 250 * 1024 ? 'target met' : 'target missed'}).`,
  ].join('\n');
  writeSection('bundle', 'App bundle', body);
  process.stdout.write(`${body}\n`);
}
