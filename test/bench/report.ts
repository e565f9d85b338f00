// docs/benchmarks.md is rewritten by `pnpm bench`: each benchmark owns a section between
// markers and replaces only its own, with the command, the machine and the date.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

const FILE = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));

export function machine(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${cpus().length} cores (${cpu}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
}

export function writeSection(name: string, title: string, body: string): void {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const section = `${start}\n## ${title}\n\n${body.trim()}\n\nMachine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}.\n${end}`;
  let doc = readFileSync(FILE, 'utf8');
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  doc =
    from >= 0 && to > from
      ? doc.slice(0, from) + section + doc.slice(to + end.length)
      : `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(FILE, doc);
}

export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
