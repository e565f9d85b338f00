// A database set up by the old system has schema app with the service's tables but no
// migration bookkeeping. Provisioning must not re-create those tables (they hold the
// client's orders); it verifies that they are what migration 0001 would create and records
// 0001 as a baseline. What "would create" means is taken from 0001 itself: it is run in a
// scratch schema inside a transaction that is always rolled back, so the expectation can
// never drift from the SQL.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { type ColumnInfo, tableColumns } from './catalog.ts';
import type { Migration } from './sources.ts';

/** The columns each table of a migration has right after it runs on an empty schema. */
export async function probeMigration(client: pg.ClientBase, migration: Migration): Promise<Map<string, ColumnInfo[]>> {
  const probe = `campo_probe_${randomBytes(6).toString('hex')}`;
  await client.query('begin');
  try {
    await client.query(`create schema ${probe}`);
    // 0001 qualifies every name with "app." (see its header); \b keeps e.g. "campo_app." intact.
    await client.query(migration.sql.replace(/\bapp\./g, `${probe}.`));
    return await tableColumns(client, probe);
  } finally {
    await client.query('rollback');
  }
}

export interface BaselineResult {
  /** Differences that stop provisioning, one line each. */
  differences: string[];
  /** Things an operator should know but that do not stop provisioning. */
  warnings: string[];
  /** Columns missing now that a later migration adds: 'pedidos.end_entrega'. */
  toBeAdded: string[];
}

/**
 * Compares the existing app tables with the expectation. Columns that a later migration
 * adds may be missing (that migration adds them); extra tables and columns are the old
 * system's and are left alone.
 */
export function compareBaseline(
  expected: Map<string, ColumnInfo[]>,
  actual: Map<string, ColumnInfo[]>,
  addedLater: { table: string; column: string }[],
): BaselineResult {
  const differences: string[] = [];
  const warnings: string[] = [];
  const toBeAdded: string[] = [];
  const later = new Set(addedLater.map((a) => `${a.table}.${a.column}`));
  for (const [table, columns] of expected) {
    const existing = actual.get(table);
    if (!existing) {
      differences.push(`table app.${table} is missing`);
      continue;
    }
    const byName = new Map(existing.map((c) => [c.name, c]));
    for (const col of columns) {
      const found = byName.get(col.name);
      if (!found) {
        if (later.has(`${table}.${col.name}`)) toBeAdded.push(`${table}.${col.name}`);
        else differences.push(`column app.${table}.${col.name} (${col.type}) is missing`);
      } else if (found.type !== col.type) {
        differences.push(`column app.${table}.${col.name} is ${found.type}, expected ${col.type}`);
      }
    }
    const known = new Set(columns.map((c) => c.name));
    for (const extra of existing) {
      if (known.has(extra.name)) continue;
      if (extra.notNull && extra.default === null) {
        warnings.push(
          `column app.${table}.${extra.name} is not Campo's and is NOT NULL without a default: inserts by Campo will fail until it gets a default`,
        );
      }
    }
  }
  return { differences, warnings, toBeAdded };
}
