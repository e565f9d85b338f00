// The SQL that provisioning applies, read from sql/ and checked before anything touches a
// database: numbered migrations (applied once each) and repeatable objects (functions,
// ERP indexes, views, triggers: re-applied when their text changes). Each repeatable file
// declares in its header which ERP tables and columns it reads or writes; those
// declarations are the ERP contract that provisioning verifies first, so adapting Campo to
// another ERP means editing SQL files only.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SQL_DIR } from '../sql-files.ts';

export interface Migration {
  /** '0001' */
  version: string;
  /** '0001_app_schema' */
  name: string;
  sql: string;
  checksum: string;
  /** Columns this migration adds to existing app tables (`alter table app.t add column c`). */
  addsColumns: { table: string; column: string }[];
}

export const REPEATABLE_KINDS = ['function', 'index', 'view', 'trigger'] as const;
export type RepeatableKind = (typeof REPEATABLE_KINDS)[number];

const FOLDERS: Record<RepeatableKind, string> = {
  function: 'functions',
  index: 'indexes',
  view: 'views',
  trigger: 'triggers',
};

export type ErpAccess = 'read' | 'write';

export interface ErpRequirement {
  /** Schema-qualified: 'public.corrent'. */
  table: string;
  columns: string[];
  access: ErpAccess;
}

export interface Repeatable {
  kind: RepeatableKind;
  /** The object's name: the view, trigger or function it creates; the file name for index sets. */
  name: string;
  /** Path relative to sql/, for messages. */
  file: string;
  sql: string;
  checksum: string;
  erp: ErpRequirement[];
  /** Views of schema app this one selects from (views only). */
  dependsOn: string[];
  /** campo_* index names an index file may create (index files only). */
  indexes: string[];
}

export interface SqlSources {
  /** The ERP profile the repeatable objects come from (DEFAULT_PROFILE when absent). */
  profile?: string;
  migrations: Migration[];
  /** In the order they are applied: functions, ERP indexes, views (dependencies first), triggers. */
  repeatables: Repeatable[];
}

export class SqlSourceError extends Error {}

/** Content checksum; line endings are normalised so a checkout on Windows is not a change. */
export function checksum(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');
}

/** Every statement reaches a LATIN1 database: a non-ASCII byte, even in a comment, can fail it. */
export function nonAsciiLines(text: string): number[] {
  const lines: number[] = [];
  text.split('\n').forEach((line, i) => {
    for (let c = 0; c < line.length; c++) {
      if (line.charCodeAt(c) > 0x7f) {
        lines.push(i + 1);
        break;
      }
    }
  });
  return lines;
}

/** The comment block a file opens with, comment markers removed. */
export function headerOf(sql: string): string {
  const lines: string[] = [];
  for (const line of sql.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('--')) lines.push(trimmed.replace(/^--\s?/, ''));
    else if (trimmed === '' && lines.length > 0) lines.push('');
    else break;
  }
  return lines.join('\n').trim();
}

function withoutComments(sql: string): string {
  return sql.replace(/--[^\n]*/g, '');
}

/**
 * Reads `erp-reads: schema.table(col, col)` and `erp-writes: ...` declarations from a
 * header; a list may run over several comment lines. `erp-reads: (none)` declares nothing.
 */
export function parseErpDeclarations(header: string, file: string): ErpRequirement[] {
  const text = header.replace(/\s+/g, ' ');
  const out: ErpRequirement[] = [];
  const marker = /erp-(reads|writes):\s*/g;
  for (let m = marker.exec(text); m; m = marker.exec(text)) {
    const rest = text.slice(marker.lastIndex);
    if (rest.startsWith('(none')) continue;
    const decl = /^([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*)\s*\(([^)]*)\)/i.exec(rest);
    if (!decl) {
      throw new SqlSourceError(
        `${file}: cannot read "erp-${m[1]}: ${rest.slice(0, 40)}..."; write schema.table(column, ...) or (none)`,
      );
    }
    const columns = (decl[3] ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    const bad = columns.find((c) => !/^[a-z_][a-z0-9_]*$/i.test(c));
    if (bad !== undefined || columns.length === 0) {
      throw new SqlSourceError(`${file}: bad column list in erp-${m[1]}: ${decl[0]}`);
    }
    out.push({ table: `${decl[1]}.${decl[2]}`, columns, access: m[1] === 'writes' ? 'write' : 'read' });
  }
  return out;
}

/** Merges declarations of the same table and access, keeping the first order of columns. */
export function mergeRequirements(reqs: ErpRequirement[]): ErpRequirement[] {
  const byKey = new Map<string, ErpRequirement>();
  for (const r of reqs) {
    const key = `${r.access}:${r.table}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, { ...r, columns: [...r.columns] });
    else for (const c of r.columns) if (!seen.columns.includes(c)) seen.columns.push(c);
  }
  return [...byKey.values()];
}

/** The reference ERP's profile: the files in sql/functions, indexes, views and triggers. */
export const DEFAULT_PROFILE = 'referencia';
/** Where other profiles live: sql/erp-profiles/<name>/{functions,indexes,views,triggers}. */
export const PROFILES_DIR = 'erp-profiles';

/** An ERP profile that no folder under sql/erp-profiles provides. */
export class UnknownProfileError extends Error {
  constructor(
    readonly profile: string,
    readonly known: string[],
  ) {
    super(`unknown ERP profile "${profile}"; the known profiles are ${known.join(', ')}`);
  }
}

/** The profiles shipped: the reference first, then every folder under sql/erp-profiles. */
export async function erpProfiles(root: string = SQL_DIR): Promise<string[]> {
  let entries: { name: string; isDirectory(): boolean }[];
  try {
    entries = await readdir(join(root, PROFILES_DIR), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [DEFAULT_PROFILE];
    throw err;
  }
  const others = entries
    .filter((e) => e.isDirectory() && e.name !== DEFAULT_PROFILE)
    .map((e) => e.name)
    .sort();
  return [DEFAULT_PROFILE, ...others];
}

async function readFolder(folder: string, root: string): Promise<{ name: string; sql: string }[]> {
  let names: string[];
  try {
    names = (await readdir(join(root, folder))).filter((n) => n.endsWith('.sql')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return Promise.all(names.map(async (name) => ({ name, sql: await readFile(join(root, folder, name), 'utf8') })));
}

function checkText(file: string, sql: string): void {
  const bad = nonAsciiLines(sql);
  if (bad.length > 0) {
    throw new SqlSourceError(
      `${file}: non-ASCII characters on line ${bad.join(', ')}; SQL files must be pure ASCII, which reads alike in every ERP encoding (LATIN1, WIN1252, UTF8)`,
    );
  }
  if (headerOf(sql) === '') throw new SqlSourceError(`${file}: must open with a comment saying why it exists`);
}

export function parseMigration(fileName: string, sql: string): Migration {
  const m = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(fileName);
  if (!m?.[1]) throw new SqlSourceError(`migrations/${fileName}: name must look like 0001_what.sql`);
  checkText(`migrations/${fileName}`, sql);
  const addsColumns: Migration['addsColumns'] = [];
  const add =
    /alter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?app\.(\w+)\s+add\s+(?:column\s+)?(?:if\s+not\s+exists\s+)?(\w+)/gi;
  const code = withoutComments(sql);
  for (let a = add.exec(code); a; a = add.exec(code)) {
    if (a[1] && a[2]) addsColumns.push({ table: a[1].toLowerCase(), column: a[2].toLowerCase() });
  }
  return { version: m[1], name: fileName.replace(/\.sql$/, ''), sql, checksum: checksum(sql), addsColumns };
}

export function parseRepeatable(kind: RepeatableKind, fileName: string, sql: string, folder = ''): Repeatable {
  const file = `${folder}${FOLDERS[kind]}/${fileName}`;
  const name = fileName.replace(/\.sql$/, '');
  checkText(file, sql);
  const header = headerOf(sql);
  const code = withoutComments(sql);
  if (kind !== 'function' && !/erp-(reads|writes):/.test(header)) {
    throw new SqlSourceError(`${file}: the header must declare the ERP tables it uses (erp-reads: ... or (none))`);
  }
  const creates: Record<Exclude<RepeatableKind, 'index'>, RegExp> = {
    function: /create\s+or\s+replace\s+function\s+app\.(\w+)\s*\(/i,
    view: /create\s+view\s+app\.(\w+)/i,
    trigger: /create\s+trigger\s+(\w+)/i,
  };
  if (kind !== 'index') {
    const created = creates[kind].exec(code)?.[1];
    if (created !== name) {
      throw new SqlSourceError(`${file}: must create the ${kind} its file is named after (${name}), found ${created}`);
    }
  }
  // ERP indexes: through app.garantir_indice_erp(..., 'campo_x'), or a plain
  // "create index if not exists campo_x"; either way the name says it is Campo's.
  const indexes: string[] = [];
  if (kind === 'index') {
    for (const ix of code.matchAll(/create\s+(?:unique\s+)?index\s+(?:if\s+not\s+exists\s+)?(\w+)/gi)) {
      if (!/if\s+not\s+exists/i.test(ix[0]) || !ix[1]?.startsWith('campo_')) {
        throw new SqlSourceError(`${file}: ERP indexes must be "create index if not exists campo_..."; found ${ix[0]}`);
      }
      indexes.push(ix[1]);
    }
    for (const call of code.matchAll(/garantir_indice_erp\s*\([^;]*?'(\w+)'\s*\)/gi)) {
      if (!call[1]?.startsWith('campo_'))
        throw new SqlSourceError(`${file}: ERP index ${call[1]} must be named campo_*`);
      indexes.push(call[1]);
    }
    if (indexes.length === 0) throw new SqlSourceError(`${file}: declares no ERP index`);
  }
  const dependsOn =
    kind === 'view'
      ? [...new Set([...code.matchAll(/\bapp\.(vw_\w+)/gi)].map((d) => (d[1] ?? '').toLowerCase()))].filter(
          (d) => d !== name,
        )
      : [];
  return {
    kind,
    name,
    file,
    sql,
    checksum: checksum(sql),
    erp: mergeRequirements(parseErpDeclarations(header, file)),
    dependsOn,
    indexes,
  };
}

/** Views ordered so that every view comes after the views it selects from. */
export function orderViews(views: Repeatable[]): Repeatable[] {
  const byName = new Map(views.map((v) => [v.name, v]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const out: Repeatable[] = [];
  const visit = (v: Repeatable, path: string[]) => {
    if (done.has(v.name)) return;
    if (visiting.has(v.name)) throw new SqlSourceError(`views depend on each other in a cycle: ${path.join(' -> ')}`);
    visiting.add(v.name);
    for (const dep of v.dependsOn) {
      const target = byName.get(dep);
      if (!target) throw new SqlSourceError(`${v.file}: selects from app.${dep}, which no file in sql/views creates`);
      visit(target, [...path, dep]);
    }
    visiting.delete(v.name);
    done.add(v.name);
    out.push(v);
  };
  for (const v of [...views].sort((a, b) => a.name.localeCompare(b.name))) visit(v, [v.name]);
  return out;
}

/**
 * Reads and checks every file under sql/migrations, functions, indexes, views and triggers.
 * A profile other than the reference replaces, by file name, the files its folder
 * (sql/erp-profiles/<profile>/functions, ...) holds, and adds the ones it alone has; what it
 * does not replace (Campo-generic functions, views over app tables only) is shared.
 */
export async function loadSqlSources(root: string = SQL_DIR, profile: string = DEFAULT_PROFILE): Promise<SqlSources> {
  const known = await erpProfiles(root);
  if (!known.includes(profile)) throw new UnknownProfileError(profile, known);
  const migrations = (await readFolder('migrations', root)).map((f) => parseMigration(f.name, f.sql));
  const versions = new Set<string>();
  for (const m of migrations) {
    if (versions.has(m.version)) throw new SqlSourceError(`two migrations share the number ${m.version}`);
    versions.add(m.version);
  }
  const repeatables: Repeatable[] = [];
  for (const kind of REPEATABLE_KINDS) {
    const byName = new Map(
      (await readFolder(FOLDERS[kind], root)).map((f) => [f.name, parseRepeatable(kind, f.name, f.sql)] as const),
    );
    if (profile !== DEFAULT_PROFILE) {
      const folder = `${PROFILES_DIR}/${profile}/`;
      for (const f of await readFolder(`${folder}${FOLDERS[kind]}`, root)) {
        byName.set(f.name, parseRepeatable(kind, f.name, f.sql, folder));
      }
    }
    const items = [...byName.keys()].sort().map((name) => byName.get(name) as Repeatable);
    repeatables.push(...(kind === 'view' ? orderViews(items) : items));
  }
  return { profile, migrations, repeatables };
}

export interface ErpContractEntry extends ErpRequirement {
  /** Files (object names) that use the table this way. */
  usedBy: string[];
  /** The same, per column. */
  columnUsers: Record<string, string[]>;
}

/** Everything the views, triggers and indexes need from the ERP, with who needs what. */
export function erpContract(sources: SqlSources): ErpContractEntry[] {
  const byKey = new Map<string, ErpContractEntry>();
  for (const r of sources.repeatables) {
    for (const req of r.erp) {
      const key = `${req.access}:${req.table}`;
      const seen = byKey.get(key) ?? { ...req, columns: [], usedBy: [], columnUsers: {} };
      for (const c of req.columns) {
        if (!seen.columns.includes(c)) seen.columns.push(c);
        const users = seen.columnUsers[c] ?? [];
        if (!users.includes(r.name)) users.push(r.name);
        seen.columnUsers[c] = users;
      }
      if (!seen.usedBy.includes(r.name)) seen.usedBy.push(r.name);
      byKey.set(key, seen);
    }
  }
  return [...byKey.values()].sort((a, b) => a.table.localeCompare(b.table) || a.access.localeCompare(b.access));
}
