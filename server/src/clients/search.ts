// The SQL side of shared/src/search.ts, for the client and catalog queries.
import { containsPattern, SEARCH_FOLD_FROM, SEARCH_FOLD_TO, type SearchTerm } from '@campo/shared';
import type { Expression, ExpressionBuilder, ExpressionWrapper, SqlBool } from 'kysely';
import type { DB } from '../db/types.ts';

/** foldSearchText in SQL: lower() folds ASCII, translate() the accented LATIN1 letters lower() leaves alone in the C locale. */
export function folded<TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, value: Expression<string | null>) {
  return eb.fn<string>('translate', [eb.fn('lower', [value]), eb.val(SEARCH_FOLD_FROM), eb.val(SEARCH_FOLD_TO)]);
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
