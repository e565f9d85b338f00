// What `campo serve` checks before it listens: the schema version this release needs, the
// objects its queries use, and its role's privileges on them. Why: a schema provisioned by
// another release, or damaged since (a dropped column, view or policy), used to surface only
// as 500 answers on the first request that touched it; now the server refuses to start with
// one line saying what is missing and what to run.
import type pg from 'pg';
import { appliedSchemaVersion } from '../health/service.ts';
import { loadSqlSources } from '../provisioning/sources.ts';
import { type CatalogItem, compareCatalog, describeDrift, readCatalog } from '../provisioning/verify.ts';

const PROVISION = 'run campo provision';

/** The table a recorded item belongs to, so a missing table is reported once, not per column. */
function tableOf(key: string): string | null {
  const m = /^(?:table|column|row level security on) (app\.[a-z0-9_"]+)|^\S+ \S+ on (app\.\S+)$/.exec(key);
  return m?.[1] ?? m?.[2] ?? null;
}

/** Problems that keep the server from working on this database; empty when it can start. */
export async function preflightProblems(pool: pg.Pool): Promise<string[]> {
  const sources = await loadSqlSources();
  const needed = sources.migrations.at(-1)?.version ?? null;
  const client = await pool.connect();
  try {
    const version = await appliedSchemaVersion(pool);
    if (version === null) return [`schema app is not provisioned in this database (${PROVISION})`];
    if (needed && version < needed) return [`schema app is at ${version}, this release needs ${needed} (${PROVISION})`];
    if (needed && version > needed)
      return [`schema app is at ${version}, newer than this release (${needed}): run the newer release`];

    const problems: string[] = [];
    // The views, triggers and functions shipped under sql/: present, and triggers enabled.
    const { rows } = await client.query<{ kind: string; name: string }>(
      `select 'view' as kind, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'app' and c.relkind = 'v'
       union all
       select 'trigger', t.tgname from pg_trigger t join pg_class c on c.oid = t.tgrelid
         join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'app' and not t.tgisinternal and t.tgenabled <> 'D'
       union all
       select 'function', p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'app'`,
    );
    const present = new Set(rows.map((r) => `${r.kind}:${r.name}`));
    for (const r of sources.repeatables) {
      if (r.kind === 'index') continue;
      if (!present.has(`${r.kind}:${r.name}`)) problems.push(`${r.kind} app.${r.name} is missing`);
    }

    // Tables, columns, policies and the rest, against what provisioning recorded it verified.
    const stored = await client.query<{ ok: boolean }>("select to_regclass('app.schema_catalog') is not null as ok");
    if (!stored.rows[0]?.ok) {
      problems.push('schema app was provisioned by an earlier release that did not record what it must hold');
    } else {
      const { rows: expectedRows } = await client.query<{ key: string; kind: CatalogItem['kind']; def: string }>(
        'select key, kind, def from app.schema_catalog',
      );
      const expected = new Map<string, CatalogItem>(
        expectedRows.map((r) => [
          r.key,
          {
            ...r,
            create: r.kind === 'table' ? null : '',
            table: tableOf(r.key),
          },
        ]),
      );
      for (const d of compareCatalog(expected, await readCatalog(client, 'app'))) problems.push(describeDrift(d));
      // The server's role must be able to use what is there.
      const denied = await client.query<{ name: string; privilege: string }>(
        `select c.relname as name, p.privilege
           from pg_class c join pg_namespace n on n.oid = c.relnamespace,
                unnest(case c.relkind when 'v' then array['select'] when 'S' then array['usage']
                                      else array['select', 'insert', 'update', 'delete'] end) as p(privilege)
          where n.nspname = 'app' and c.relkind in ('r', 'p', 'v', 'S')
            and c.relname not in ('schema_migrations', 'schema_repeatables', 'schema_catalog')
            -- The orders' numbers: drawn by app.proximo_num_ped_sar, as the sequences' owner.
            and c.relname not like 'num\\_ped\\_sar\\_%'
            and not case when c.relkind = 'S' then has_sequence_privilege(c.oid, p.privilege)
                         else has_table_privilege(c.oid, p.privilege) end
          order by 1, 2`,
      );
      const role = (await client.query<{ role: string }>('select current_user as role')).rows[0]?.role;
      const byTable = new Map<string, string[]>();
      for (const r of denied.rows) byTable.set(r.name, [...(byTable.get(r.name) ?? []), r.privilege.toUpperCase()]);
      for (const [table, privileges] of byTable) {
        problems.push(
          `role ${role} lacks ${privileges.join(', ')} on app.${table} (campo provision --grant-to ${role})`,
        );
      }
    }
    return problems;
  } finally {
    client.release();
  }
}

/** The one line `campo serve` prints before refusing to start. */
export function preflightLine(problems: string[]): string {
  const fix = problems.some((p) => p.includes('run the newer release')) ? '' : ` (${PROVISION})`;
  return `schema app is not ready for this server${fix}: ${problems.map((p) => p.replace(/ \(run campo provision\)$/, '')).join('; ')}`;
}
