import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SQL_DIR } from '../sql-files.ts';
import { compareBaseline } from './baseline.ts';
import {
  erpContract,
  headerOf,
  loadSqlSources,
  orderViews,
  parseErpDeclarations,
  parseMigration,
  parseRepeatable,
  SqlSourceError,
  UnknownProfileError,
} from './sources.ts';

function sqlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sqlFiles(path) : name.endsWith('.sql') ? [path] : [];
  });
}

describe('the SQL under sql/', () => {
  it('is pure ASCII, byte for byte: it reads alike in every ERP encoding', () => {
    const files = sqlFiles(SQL_DIR);
    expect(files.length).toBeGreaterThan(20);
    const offenders: string[] = [];
    for (const file of files) {
      const bytes = readFileSync(file);
      const at = bytes.findIndex((b) => b > 0x7f);
      if (at >= 0) {
        const line = bytes.subarray(0, at).toString('latin1').split('\n').length;
        offenders.push(`${file.slice(SQL_DIR.length)}:${line}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('has numbered migrations from 0001 without gaps, 26 views, 3 triggers, and a header on every file', async () => {
    const sources = await loadSqlSources();
    const versions = sources.migrations.map((m) => Number(m.version));
    expect(versions).toEqual(versions.map((_, i) => i + 1));
    expect(sources.migrations.slice(0, 2).map((m) => m.name)).toEqual(['0001_app_schema', '0002_end_entrega']);
    // The spec's verified setup: 13 tables, which a baseline compares against 0001.
    expect(sources.migrations[0]?.sql.match(/^create table app\.\w+/gm)).toHaveLength(13);
    const names = (kind: string) => sources.repeatables.filter((r) => r.kind === kind).map((r) => r.name);
    expect(names('view')).toHaveLength(26);
    expect(names('view')).toContain('vw_sitpedido');
    expect(names('trigger').sort()).toEqual(['trg_cliente_novo', 'trg_pedido_aprovado', 'trg_pedidos_abertos']);
    expect(names('function')).toContain('texto_erp');
    for (const r of sources.repeatables) expect(headerOf(r.sql).length, r.file).toBeGreaterThan(80);
  });

  it('orders every view after the views it selects from', async () => {
    const views = (await loadSqlSources()).repeatables.filter((r) => r.kind === 'view');
    const position = new Map(views.map((v, i) => [v.name, i]));
    for (const v of views)
      for (const d of v.dependsOn)
        expect(position.get(d), `${v.name} after ${d}`).toBeLessThan(position.get(v.name) ?? -1);
  });

  it('knows which columns 0002 adds, for the baseline of old databases', async () => {
    const m0002 = (await loadSqlSources()).migrations.find((m) => m.version === '0002');
    expect(m0002?.addsColumns).toEqual([{ table: 'pedidos', column: 'end_entrega' }]);
  });

  it('uses nothing PostgreSQL 12 lacks', () => {
    const newer = [
      /create\s+or\s+replace\s+trigger/i,
      /\bmerge\s+into\b/i,
      /security_invoker/i,
      /gen_random_uuid/i,
      /nulls\s+not\s+distinct/i,
      /multirange/i,
      /\bon\s+delete\s+set\s+(null|default)\s*\(/i,
    ];
    for (const file of sqlFiles(SQL_DIR)) {
      const code = readFileSync(file, 'utf8').replace(/--[^\n]*/g, '');
      for (const re of newer) expect(re.test(code), `${file}: ${re}`).toBe(false);
    }
  });
});

describe('the ERP contract', () => {
  it('reads schema.table(columns) declarations over several comment lines', () => {
    const header = headerOf(
      '-- why\n--\n-- erp-reads: public.corrent(id_corrent,\n--   razao_social)\n-- erp-writes: public.pedidos_venda(id_pedido)\n-- erp-reads: (none here)\nselect 1;',
    );
    expect(parseErpDeclarations(header, 'x.sql')).toEqual([
      { table: 'public.corrent', columns: ['id_corrent', 'razao_social'], access: 'read' },
      { table: 'public.pedidos_venda', columns: ['id_pedido'], access: 'write' },
    ]);
  });

  it('refuses an unqualified table, so that no search_path decides which table is meant', () => {
    expect(() => parseErpDeclarations('erp-reads: corrent(id_corrent)', 'x.sql')).toThrow(SqlSourceError);
  });

  it('refuses a view file without declarations, or that creates another view than its name', () => {
    expect(() => parseRepeatable('view', 'vw_a.sql', '-- why\ncreate view app.vw_a as select 1;')).toThrow(
      /must declare the ERP tables/,
    );
    expect(() =>
      parseRepeatable('view', 'vw_a.sql', '-- why\n-- erp-reads: (none)\ncreate view app.vw_b as select 1;'),
    ).toThrow(/must create the view its file is named after/);
    expect(() => parseMigration('0003 oops.sql', '-- x\nselect 1;')).toThrow(/0001_what\.sql/);
    expect(() => parseMigration('0003_dash.sql', '-- a \u2014 b\nselect 1;')).toThrow(/non-ASCII characters on line 1/);
  });

  it('finds dependency cycles between views', () => {
    const a = parseRepeatable(
      'view',
      'vw_a.sql',
      '-- why\n-- erp-reads: (none)\ncreate view app.vw_a as select * from app.vw_b;',
    );
    const b = parseRepeatable(
      'view',
      'vw_b.sql',
      '-- why\n-- erp-reads: (none)\ncreate view app.vw_b as select * from app.vw_a;',
    );
    expect(() => orderViews([a, b])).toThrow(/cycle: vw_a -> vw_b -> vw_a/);
  });

  it('is documented column by column in docs/erp-contract.md', async () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/erp-contract.md', import.meta.url)), 'utf8');
    const rows = new Set(
      doc
        .split('\n')
        .filter((l) => l.startsWith('|'))
        .map((l) => l.split('|').map((c) => c.trim().replace(/`/g, '')))
        .map((cells) => `${cells[1]}.${cells[2]}`),
    );
    const missing = erpContract(await loadSqlSources()).flatMap((req) =>
      req.columns.map((c) => `${req.table.replace(/^public\./, '')}.${c}`).filter((key) => !rows.has(key)),
    );
    expect([...new Set(missing)]).toEqual([]);
  });
});

describe('compareBaseline', () => {
  const col = (name: string, type: string) => ({ name, type, notNull: false, default: null });
  const expected = new Map([
    ['pedidos', [col('id', 'bigint'), col('situa', 'smallint'), col('end_entrega', 'text')]],
    ['chamados', [col('id', 'bigint')]],
  ]);

  it('accepts the same tables, missing only what a later migration adds', () => {
    const actual = new Map([
      ['pedidos', [col('id', 'bigint'), col('situa', 'smallint'), col('legado', 'text')]],
      ['chamados', [col('id', 'bigint')]],
    ]);
    expect(compareBaseline(expected, actual, [{ table: 'pedidos', column: 'end_entrega' }])).toEqual({
      differences: [],
      warnings: [],
      toBeAdded: ['pedidos.end_entrega'],
    });
  });

  it('lists missing tables, missing columns and other types, and warns of mandatory foreign columns', () => {
    const actual = new Map([['pedidos', [col('id', 'integer'), { ...col('legado', 'text'), notNull: true }]]]);
    const result = compareBaseline(expected, actual, []);
    expect(result.differences).toEqual([
      'column app.pedidos.id is integer, expected bigint',
      'column app.pedidos.situa (smallint) is missing',
      'column app.pedidos.end_entrega (text) is missing',
      'table app.chamados is missing',
    ]);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(/app\.pedidos\.legado .* NOT NULL without a default/);
  });
});

describe('ERP profiles', () => {
  it('replace the shared files by name, keep the Campo-generic ones, and install the same objects', async () => {
    const reference = await loadSqlSources();
    const odoo = await loadSqlSources(undefined, 'odoo');
    const names = (s: typeof odoo) => s.repeatables.map((r) => `${r.kind} ${r.name}`).sort();
    expect(names(odoo)).toEqual(names(reference));
    const file = (name: string) => odoo.repeatables.find((r) => r.name === name)?.file;
    expect(file('vw_clientes')).toBe('erp-profiles/odoo/views/vw_clientes.sql');
    expect(file('trg_pedido_aprovado')).toBe('erp-profiles/odoo/triggers/trg_pedido_aprovado.sql');
    expect(file('texto_erp')).toBe('functions/texto_erp.sql');
    expect(file('vw_regras_vigentes')).toBe('views/vw_regras_vigentes.sql');
    // Every file that touches ERP tables is the profile's: none still names a reference table.
    const referenceTables = new Set(erpContract(reference).map((r) => r.table));
    expect(erpContract(odoo).filter((r) => referenceTables.has(r.table))).toEqual([]);
    expect(odoo.profile).toBe('odoo');
  });

  it('refuse a profile no folder provides, naming the known ones', async () => {
    const err = await loadSqlSources(undefined, 'sap').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnknownProfileError);
    expect((err as Error).message).toBe('unknown ERP profile "sap"; the known profiles are referencia, odoo');
  });

  it('document the odoo contract table by table in docs/erp-profile-odoo.md', async () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/erp-profile-odoo.md', import.meta.url)), 'utf8');
    const rows = new Map(
      doc
        .split('\n')
        .filter((l) => l.startsWith('| `'))
        .map((l) => l.split('|').map((c) => c.trim().replace(/`/g, '')))
        .map((cells) => [`${cells[1]} ${cells[2]}`, (cells[3] ?? '').split(/,\s*/)] as const),
    );
    const missing = erpContract(await loadSqlSources(undefined, 'odoo')).flatMap((req) => {
      const documented = rows.get(`${req.table.replace(/^public\./, '')} ${req.access}`) ?? [];
      return req.columns.filter((c) => !documented.includes(c)).map((c) => `${req.table}.${c} (${req.access})`);
    });
    expect(missing).toEqual([]);
  });
});
