// How a client is named wherever a person reads it, in SQL: the trade name (nome fantasia)
// first, the legal name (razão social) when the trade name is blank. The same rule as
// shared/src/format.ts clientDisplayName, for the queries that name a client in a row.
import { type RawBuilder, sql } from 'kysely';

/** coalesce(nullif(btrim(<alias>.nome_fantasia), ''), <alias>.razao_social) */
export function clientNameSql(alias: string): RawBuilder<string | null> {
  return sql<
    string | null
  >`coalesce(nullif(btrim(${sql.ref(`${alias}.nome_fantasia`)}), ''), ${sql.ref(`${alias}.razao_social`)})`;
}
