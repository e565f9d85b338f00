// A number PostgreSQL draws in the statement that writes it, spliced into text the server
// built before it knew the number. An order's number (num_ped_sar) is drawn when the order's
// row is written, in the round trip that commits it; its answer, its devices' document and its
// push message already hold it in their JSON. The server writes each with a placeholder where
// the number goes, and the statement puts the number there: the order needs no round trip to
// learn its number before writing them (docs/orders.md, "Cost").
import { randomInt } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';

export interface DrawnNumber {
  /** What the text holds where the number goes: 15 random digits, so no text holds it by chance or design. */
  placeholder: number;
  /** The number, as an expression of the statement the text is written in. */
  value: RawBuilder<number>;
}

export function drawnNumber(value: RawBuilder<number>): DrawnNumber {
  return { placeholder: randomInt(100_000_000_000_000, 281_474_976_710_655), value };
}

/** The text before and after the placeholder, which must occur in it exactly once. */
function around(text: string, drawn: DrawnNumber): [string, string] {
  const mark = String(drawn.placeholder);
  const at = text.indexOf(mark);
  if (at < 0 || text.indexOf(mark, at + mark.length) >= 0)
    throw new Error(`the placeholder of a drawn number occurs ${at < 0 ? 'nowhere' : 'more than once'} in the text`);
  return [text.slice(0, at), text.slice(at + mark.length)];
}

/** The text with the number in place of the placeholder, as a text expression. */
export function splicedText(text: string, drawn: DrawnNumber): RawBuilder<string> {
  const [before, after] = around(text, drawn);
  return sql<string>`(${before}::text || (${drawn.value})::text || ${after}::text)`;
}

/**
 * The text's UTF-8 bytes with the number in place of the placeholder, as a bytea expression:
 * for text the LATIN1 database could not hold as text (a push message, a stored answer).
 */
export function splicedBytes(text: string, drawn: DrawnNumber): RawBuilder<Buffer> {
  const [before, after] = around(text, drawn);
  return sql<Buffer>`(${Buffer.from(before, 'utf8')}::bytea || convert_to((${drawn.value})::text, 'UTF8')
                      || ${Buffer.from(after, 'utf8')}::bytea)`;
}
