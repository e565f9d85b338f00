// The odoo profile's test and demo ERP (sql/erp-profiles/odoo/erp): the reference fixture's
// data, generated as usual, then moved into a staging schema and mapped onto the Odoo-like
// tables by the profile's fixture-from-reference.sql. Both profiles thus hold the same people,
// clients, products, prices, orders and receivables, and tests compare the same numbers.
import type pg from 'pg';
import { readSqlFiles } from '../sql-files.ts';
import { assertErpEncoding, ERP_SEQUENCES, ERP_TABLES, FIXTURE_MARKER } from './database.ts';
import { FixtureError } from './errors.ts';
import { inTransaction } from './schema.ts';

/** The Odoo-like ERP's tables (erp/001_tables.sql), children before parents, for --replace. */
export const ODOO_TABLES = [
  'account_partial_reconcile',
  'account_move_line',
  'account_move',
  'sale_order_line',
  'sale_order',
  'ir_sequence',
  'x_campo_regra_fiscal',
  'x_campo_partner_fiscal',
  'x_campo_visita',
  'x_campo_partner_payment_term',
  'account_payment_term',
  'product_pricelist_item',
  'product_pricelist',
  'x_campo_produto_fiscal',
  'stock_quant',
  'stock_location',
  'product_product',
  'product_template',
  'uom_uom',
  'product_category',
  'x_campo_vendedor_categoria',
  'x_campo_vendedor',
  'crm_team_member',
  'crm_team',
  'res_users',
  'res_partner',
  'res_company',
  'res_country_state',
] as const;

const ODOO_SEQUENCES = [
  'account_partial_reconcile_id_seq',
  'account_move_line_id_seq',
  'account_move_id_seq',
  'sale_order_line_id_seq',
  'sale_order_id_seq',
  'product_pricelist_item_id_seq',
  'stock_quant_id_seq',
  'res_partner_id_seq',
] as const;

/** Where the reference data waits while fixture-from-reference.sql maps it. */
const STAGING = 'referencia';
const PROFILE_DIR = 'erp-profiles/odoo';

/**
 * Refuses a database that already has Odoo-like tables, unless `replace` is set and they are
 * a previous fixture's (the marker on res_company); then drops exactly those tables.
 */
export async function clearPreviousOdooFixture(pool: pg.Pool, replace: boolean): Promise<void> {
  await assertErpEncoding(pool);
  const { rows } = await pool.query<{ name: string }>(
    `select c.relname as name from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
        and c.relname = any($1::text[]) order by c.relname`,
    [[...ODOO_TABLES]],
  );
  if (rows.length === 0) return;
  const found = rows
    .map((r) => r.name)
    .slice(0, 4)
    .join(', ');
  if (!replace) {
    throw new FixtureError(
      'TABLES_EXIST',
      `the database already has ERP tables (${found}${rows.length > 4 ? ` and ${rows.length - 4} more` : ''}); erp-fixture only builds a reference ERP in a database without one. ` +
        'Use an empty database, or --replace to rebuild a reference ERP that erp-fixture created earlier.',
    );
  }
  const marker = await pool.query<{ comment: string | null }>(
    "select obj_description(to_regclass('public.res_company'), 'pg_class') as comment",
  );
  if (marker.rows[0]?.comment !== FIXTURE_MARKER) {
    throw new FixtureError(
      'NOT_A_FIXTURE',
      `refusing to replace: the ERP tables here (${found}) were not created by erp-fixture ` +
        `(table res_company lacks the comment '${FIXTURE_MARKER}'), so they may be a real ERP's. Nothing was dropped.`,
    );
  }
  try {
    await inTransaction(pool, async (client) => {
      await client.query(`drop table if exists ${ODOO_TABLES.join(', ')}`);
      await client.query(`drop sequence if exists ${ODOO_SEQUENCES.join(', ')}`);
    });
  } catch (err) {
    if ((err as { code?: string }).code === '2BP01') {
      throw new FixtureError(
        'DEPENDENT_OBJECTS',
        `cannot replace the ERP: other objects depend on its tables (${(err as { detail?: string }).detail ?? 'see the server log'}). ` +
          'Drop them first (for Campo, the app schema), or use a fresh database. Nothing was dropped.',
      );
    }
    throw err;
  }
}

/**
 * Turns the reference fixture just generated in public into the Odoo-like ERP: moves the
 * reference tables into schema referencia, creates the Odoo tables, maps the rows and drops
 * the staging schema, all in one transaction.
 */
export async function mapReferenceToOdoo(pool: pg.Pool): Promise<Record<string, number>> {
  const tables = await readSqlFiles(`${PROFILE_DIR}/erp`);
  const mapping = (await readSqlFiles(PROFILE_DIR)).find((f) => f.name === 'fixture-from-reference.sql');
  if (!mapping) throw new Error(`sql/${PROFILE_DIR}/fixture-from-reference.sql is missing`);
  const counts: Record<string, number> = {};
  await inTransaction(pool, async (client) => {
    await client.query(`create schema ${STAGING}`);
    for (const t of ERP_TABLES) await client.query(`alter table public.${t} set schema ${STAGING}`);
    for (const s of ERP_SEQUENCES) await client.query(`alter sequence public.${s.sequence} set schema ${STAGING}`);
    for (const file of tables) await client.query(file.sql);
    await client.query(`comment on table res_company is '${FIXTURE_MARKER}'`);
    await client.query(mapping.sql);
    await client.query(`drop schema ${STAGING} cascade`);
    for (const t of [...ODOO_TABLES].reverse()) {
      const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from public.${t}`);
      counts[t] = rows[0]?.n ?? 0;
    }
  });
  await pool.query(`analyze ${ODOO_TABLES.join(', ')}`);
  return counts;
}
