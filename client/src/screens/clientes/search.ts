// Search over the folded `busca` key the pull writes on clients and products (docs/sync.md).
import { searchTerms } from '@campo/shared/search';
import { escapeRegex } from '../../kit/field-format.ts';

/**
 * One RxDB selector per word: every word must appear in the key. A word with digits also
 * matches documents and codes without their mask ("12.345.678/0001-90"), as on the server.
 */
export function buscaSelectors(q: string): Record<string, unknown>[] {
  return searchTerms(q).map((t) => {
    const text = { busca: { $regex: escapeRegex(t.text) } };
    if (!t.compact) return text;
    return { $or: [text, { busca: { $regex: escapeRegex(t.compact.toLowerCase()) } }] };
  });
}
