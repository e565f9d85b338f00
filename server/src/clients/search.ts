// The SQL side of shared/src/search.ts, for the client and catalog queries.
import { containsPattern, SEARCH_FOLD_FROM, SEARCH_FOLD_TO, SEARCH_FOLD_WIN1252, type SearchTerm } from '@campo/shared';
import {
  type Expression,
  type ExpressionBuilder,
  type ExpressionWrapper,
  type RawBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { DB } from '../db/types.ts';

// The alphabets' letters beyond ASCII as bytes: a LATIN1 database's C1 characters (Windows-1252
// ERP text) cannot be bound as text to a WIN1252 database, nor “ ’ to a LATIN1 one, so each
// database reads the alphabet meant for it from bytes, in its own encoding branch.
const FROM_LATIN1 = Buffer.from(SEARCH_FOLD_FROM, 'latin1');
const FROM_WIN1252 = Buffer.from(SEARCH_FOLD_WIN1252.from, 'latin1');

/**
 * foldSearchText in SQL: lower() folds ASCII, translate() the accented letters lower() leaves
 * alone in the C locale, and the curly apostrophes and Windows-1252 letters, as the database's
 * encoding (LATIN1, or WIN1252 and UTF8) holds them.
 */
export function foldSql(value: Expression<string | null> | RawBuilder<unknown>): RawBuilder<string> {
  // Scalar subqueries: PostgreSQL reads the alphabets once per statement (an InitPlan), not per row.
  return sql<string>`translate(lower(${value}),
    (select case getdatabaseencoding() when 'LATIN1' then convert_from(${FROM_LATIN1}::bytea, 'LATIN1')
                                       else convert_from(${FROM_WIN1252}::bytea, 'WIN1252') end),
    (select case getdatabaseencoding() when 'LATIN1' then ${SEARCH_FOLD_TO}::text
                                       else ${SEARCH_FOLD_WIN1252.to}::text end))`;
}

/** foldSql for the query builders' expressions. */
export function folded<TB extends keyof DB>(_eb: ExpressionBuilder<DB, TB>, value: Expression<string | null>) {
  return foldSql(value);
}

/**
 * Every term must match one of the columns: text columns compared folded, and the compact
 * form of a term (a document or code without mask) compared with `compactColumns` as stored.
 */
export function matchesEveryTerm<TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  terms: SearchTerm[],
  textColumns: Expression<string | null>[],
  compactColumns: Expression<string | null>[],
): ExpressionWrapper<DB, TB, SqlBool> {
  return eb.and(
    terms.map((term) => {
      const options = textColumns.map((column) => eb(folded(eb, column), 'like', containsPattern(term.text)));
      if (term.compact !== null) {
        const compact = term.compact;
        for (const column of compactColumns) options.push(eb(column, 'like', containsPattern(compact)));
      }
      return eb.or(options);
    }),
  );
}
