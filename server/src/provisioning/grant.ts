// The server should not connect as the owner of the app tables: row-level security binds
// only roles that do not own them (docs/security.md). `campo provision --grant-to <role>`
// gives such a role exactly what the API needs: read the views, read and write the app
// tables, and nothing on the ERP's own tables (the triggers write the ERP as their owner).
import type pg from 'pg';
import { ProvisionError } from './errors.ts';

const BOOKKEEPING = ['schema_migrations', 'schema_repeatables', 'schema_catalog'];

export async function grantServerRole(pool: pg.Pool, role: string): Promise<{ tables: number; views: number }> {
  const client = await pool.connect();
  try {
    const found = await client.query<{ rolsuper: boolean; owns: boolean }>(
      `select r.rolsuper,
              exists (select 1 from pg_tables t where t.schemaname = 'app' and t.tableowner = r.rolname) as owns
         from pg_roles r where r.rolname = $1`,
      [role],
    );
    const info = found.rows[0];
    if (!info)
      throw new ProvisionError(
        'refused',
        `role ${role} does not exist: create it first (CREATE ROLE ${role} LOGIN PASSWORD '...')`,
      );
    if (info.rolsuper)
      throw new ProvisionError('refused', `role ${role} is a superuser, which bypasses row-level security`);
    if (info.owns)
      throw new ProvisionError('refused', `role ${role} owns app tables, so row-level security would not bind it`);

    const objects = await client.query<{ name: string; kind: string }>(
      `select c.relname as name, c.relkind::text as kind
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'app' and c.relkind in ('r', 'v', 'p') order by 1`,
    );
    const ident = (await client.query<{ q: string }>('select quote_ident($1) as q', [role])).rows[0]?.q ?? role;
    await client.query('begin');
    await client.query(`grant usage on schema app to ${ident}`);
    let tables = 0;
    let views = 0;
    for (const o of objects.rows) {
      const name = `app.${(await client.query<{ q: string }>('select quote_ident($1) as q', [o.name])).rows[0]?.q}`;
      if (o.kind === 'v' || BOOKKEEPING.includes(o.name)) {
        await client.query(`grant select on ${name} to ${ident}`);
        if (o.kind === 'v') views++;
      } else {
        await client.query(`grant select, insert, update, delete on ${name} to ${ident}`);
        tables++;
      }
    }
    await client.query(`grant usage, select on all sequences in schema app to ${ident}`);
    await client.query(`grant execute on all functions in schema app to ${ident}`);
    await client.query('commit');
    return { tables, views };
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
