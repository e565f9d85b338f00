// The safety checks around the fixture (it must never touch a real ERP) and the bulk-load
// tricks: foreign keys and secondary indexes are dropped while COPY runs and rebuilt once at
// the end, which is many times faster than checking and indexing row by row.

import { ERP_ENCODINGS, isErpEncoding } from '@campo/shared';
import type pg from 'pg';
import { FixtureError } from './errors.ts';

/** The reference ERP's tables (sql/erp-reference), parents before children. */
export const ERP_TABLES = [
  'empresas',
  'supervisores',
  'vendedores',
  'vendedores_desc_categoria',
  'grupos_produto',
  'subgrupos_produto',
  'produtos',
  'estoque',
  'produtos_fiscal',
  'regras_fiscais',
  'pautas',
  'pautas_precos',
  'condicoes_pagamento',
  'corrent',
  'corrent_condicoes',
  'corrent_visitas',
  'corrent_fiscal',
  'pedidos_venda',
  'pedidos_venda_itens',
  'notas_fiscais',
  'notas_fiscais_itens',
  'titulos_receber',
] as const;

/** Sequences behind the ERP's generated ids, with the column each one feeds. */
export const ERP_SEQUENCES = [
  { sequence: 'corrent_id_corrent_seq', table: 'corrent', column: 'id_corrent' },
  { sequence: 'pedidos_venda_id_pedido_seq', table: 'pedidos_venda', column: 'id_pedido' },
  { sequence: 'notas_fiscais_id_nota_seq', table: 'notas_fiscais', column: 'id_nota' },
  { sequence: 'titulos_receber_id_titulo_seq', table: 'titulos_receber', column: 'id_titulo' },
] as const;

/** Set on the empresas table; only tables carrying it may be dropped by --replace. */
export const FIXTURE_MARKER = 'campo reference ERP fixture';

const CREATE_LATIN1 = "CREATE DATABASE erp ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0";

/** The reference ERP goes into a database of an encoding Campo supports (LATIN1, WIN1252 or UTF8), as a real ERP's. */
export async function assertErpEncoding(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ encoding: string; database: string }>(
    'select pg_encoding_to_char(encoding) as encoding, current_database() as database from pg_database where datname = current_database()',
  );
  const { encoding, database } = rows[0] ?? { encoding: 'unknown', database: 'unknown' };
  if (!isErpEncoding(encoding)) {
    throw new FixtureError(
      'WRONG_ENCODING',
      `database "${database}" has encoding ${encoding}, but the reference ERP, like the ERPs Campo runs in, is ${ERP_ENCODINGS.join(', ')}. ` +
        `Create such a database and point DATABASE_URL at it, e.g.: ${CREATE_LATIN1}`,
    );
  }
}

/**
 * Refuses a database that already has ERP tables, unless `replace` is set and the tables are
 * a previous fixture's (the marker on empresas); then drops exactly those tables.
 */
export async function clearPreviousFixture(pool: pg.Pool, replace: boolean): Promise<void> {
  const { rows } = await pool.query<{ name: string }>(
    `select c.relname as name from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
        and c.relname = any($1::text[])
      order by c.relname`,
    [[...ERP_TABLES, ...ERP_SEQUENCES.map((s) => s.sequence)]],
  );
  if (rows.length === 0) return;
  const names = rows.map((r) => r.name).filter((name) => !name.endsWith('_seq'));
  const listed = names.length > 0 ? names : rows.map((r) => r.name);
  const found =
    listed.length > 4 ? `${listed.slice(0, 4).join(', ')} and ${listed.length - 4} more` : listed.join(', ');
  if (!replace) {
    throw new FixtureError(
      'TABLES_EXIST',
      `the database already has ERP tables (${found}); erp-fixture only builds a reference ERP in a database without one. ` +
        'Use an empty database, or --replace to rebuild a reference ERP that erp-fixture created earlier.',
    );
  }
  const marker = await pool.query<{ comment: string | null }>(
    `select obj_description(c.oid, 'pg_class') as comment from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relname = 'empresas' and c.relkind = 'r'`,
  );
  if (marker.rows[0]?.comment !== FIXTURE_MARKER) {
    throw new FixtureError(
      'NOT_A_FIXTURE',
      `refusing to replace: the ERP tables here (${found}) were not created by erp-fixture ` +
        `(table empresas lacks the comment '${FIXTURE_MARKER}'), so they may be a real ERP's. Nothing was dropped.`,
    );
  }
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`drop table if exists ${[...ERP_TABLES].reverse().join(', ')}`);
    await client.query(`drop sequence if exists ${ERP_SEQUENCES.map((s) => s.sequence).join(', ')}`);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback');
    if ((err as { code?: string }).code === '2BP01') {
      throw new FixtureError(
        'DEPENDENT_OBJECTS',
        `cannot replace the reference ERP: other objects depend on its tables (${(err as { detail?: string }).detail ?? 'see the server log'}). ` +
          'Drop them first (for Campo, the app schema), or use a fresh database. Nothing was dropped.',
      );
    }
    throw err;
  } finally {
    client.release();
  }
}

export async function markAsFixture(pool: pg.Pool): Promise<void> {
  await pool.query(`comment on table empresas is '${FIXTURE_MARKER}'`);
}

interface Deferred {
  foreignKeys: { table: string; name: string; definition: string }[];
  indexes: { name: string; definition: string }[];
}

/** Drops the ERP tables' foreign keys and secondary indexes, remembering how to rebuild them. */
export async function deferConstraints(pool: pg.Pool): Promise<Deferred> {
  const tables = [...ERP_TABLES];
  const fks = await pool.query<{ table: string; name: string; definition: string }>(
    `select format('%I', c.relname) as table, format('%I', k.conname) as name, pg_get_constraintdef(k.oid) as definition
       from pg_constraint k join pg_class c on c.oid = k.conrelid
      where k.contype = 'f' and c.relnamespace = 'public'::regnamespace and c.relname = any($1::text[])
      order by c.relname, k.conname`,
    [tables],
  );
  const indexes = await pool.query<{ name: string; definition: string }>(
    `select format('%I', x.relname) as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i join pg_class c on c.oid = i.indrelid join pg_class x on x.oid = i.indexrelid
      where c.relnamespace = 'public'::regnamespace and c.relname = any($1::text[])
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
      order by x.relname`,
    [tables],
  );
  for (const fk of fks.rows) await pool.query(`alter table ${fk.table} drop constraint ${fk.name}`);
  for (const ix of indexes.rows) await pool.query(`drop index ${ix.name}`);
  return { foreignKeys: fks.rows, indexes: indexes.rows };
}

/** Rebuilds what deferConstraints dropped: indexes two at a time (one per core), then the foreign keys. */
export async function restoreConstraints(
  pool: pg.Pool,
  deferred: Deferred,
  onStep: (done: number, total: number) => void,
): Promise<void> {
  const total = deferred.indexes.length + deferred.foreignKeys.length;
  let done = 0;
  const queue = [...deferred.indexes];
  const worker = async () => {
    for (let ix = queue.shift(); ix; ix = queue.shift()) {
      await pool.query(ix.definition);
      onStep(++done, total);
    }
  };
  await Promise.all([worker(), worker()]);
  for (const fk of deferred.foreignKeys) {
    await pool.query(`alter table ${fk.table} add constraint ${fk.name} ${fk.definition}`);
    onStep(++done, total);
  }
}

/** Moves each id sequence past the ids the fixture wrote, so the ERP's own inserts (and Campo's triggers) continue from there. */
export async function advanceSequences(pool: pg.Pool): Promise<void> {
  for (const s of ERP_SEQUENCES) {
    await pool.query(
      `select setval('${s.sequence}', coalesce((select max(${s.column}) from ${s.table}), 0) + 1, false)`,
    );
  }
}

export async function analyze(pool: pg.Pool): Promise<void> {
  await pool.query(`analyze ${ERP_TABLES.join(', ')}`);
}
