// Checks the ERP database against the contract the SQL files declare, before anything is
// changed: a view created over a missing column fails halfway, and a trigger that misses a
// mandatory ERP column fails only later, at the first approval. Every problem is listed at
// once so an integrator can fix them in one go.
import type pg from 'pg';
import type { ErpContractEntry } from './sources.ts';

interface TableFacts {
  exists: boolean;
  columns: Map<string, { notNull: boolean; hasDefault: boolean }>;
  canSelect: boolean;
  canInsert: boolean;
}

async function tableFacts(client: pg.ClientBase, table: string): Promise<TableFacts> {
  const rel = await client.query<{ oid: number | null; sel: boolean | null; ins: boolean | null }>(
    `select to_regclass($1)::oid as oid,
            case when to_regclass($1) is not null then has_table_privilege(to_regclass($1), 'SELECT') end as sel,
            case when to_regclass($1) is not null then has_table_privilege(to_regclass($1), 'INSERT') end as ins`,
    [table],
  );
  const row = rel.rows[0];
  if (!row || row.oid === null) return { exists: false, columns: new Map(), canSelect: false, canInsert: false };
  const cols = await client.query<{ name: string; not_null: boolean; has_default: boolean }>(
    `select attname as name, attnotnull as not_null,
            (atthasdef or attidentity <> '') as has_default
       from pg_attribute
      where attrelid = $1 and attnum > 0 and not attisdropped`,
    [row.oid],
  );
  return {
    exists: true,
    columns: new Map(cols.rows.map((c) => [c.name, { notNull: c.not_null, hasDefault: c.has_default }])),
    canSelect: row.sel === true,
    canInsert: row.ins === true,
  };
}

/** The problems found, one line each; empty when the ERP has everything. */
export async function checkErpContract(client: pg.ClientBase, contract: ErpContractEntry[]): Promise<string[]> {
  const problems: string[] = [];
  const facts = new Map<string, TableFacts>();
  for (const req of contract) {
    let f = facts.get(req.table);
    if (!f) {
      f = await tableFacts(client, req.table);
      facts.set(req.table, f);
    }
    const verb = req.access === 'write' ? 'written' : 'read';
    const by = `${verb} by ${req.usedBy.join(', ')}`;
    if (!f.exists) {
      // A missing table is reported once, by its first requirement.
      if (!problems.some((p) => p.startsWith(`missing table ${req.table} `))) {
        const users = contract.filter((r) => r.table === req.table).flatMap((r) => r.usedBy);
        problems.push(`missing table ${req.table} (used by ${[...new Set(users)].join(', ')})`);
      }
      continue;
    }
    for (const c of req.columns.filter((col) => !f.columns.has(col))) {
      problems.push(`missing column ${req.table}.${c} (${verb} by ${(req.columnUsers[c] ?? req.usedBy).join(', ')})`);
    }
    // Writes need SELECT too: the triggers look rows up and read back the ids they insert.
    if (!f.canSelect) problems.push(`no SELECT privilege on ${req.table} (${by})`);
    if (req.access === 'write') {
      if (!f.canInsert) problems.push(`no INSERT privilege on ${req.table} (${by})`);
      // The ERP's mandatory columns are whatever it declares NOT NULL without a default; a
      // trigger that does not fill one would fail every approval or new client.
      const unfilled = [...f.columns]
        .filter(([name, c]) => c.notNull && !c.hasDefault && !req.columns.includes(name))
        .map(([name]) => name);
      if (unfilled.length > 0) {
        problems.push(
          `${req.table} has mandatory column${unfilled.length > 1 ? 's' : ''} ${unfilled.join(', ')} (NOT NULL, no default) that ${req.usedBy.join(', ')} does not fill`,
        );
      }
    }
  }
  return [...new Set(problems)];
}
