import { describe, expect, it } from 'vitest';
import { compactSql, PREPARED } from './prepared.ts';

describe('compactSql', () => {
  it('takes the layout out: runs of whitespace become one space, comments after -- go', () => {
    const text = `${PREPARED}
      select a,   b -- the two columns
        from t
       where c = $1\t and d = $2
    `;
    expect(compactSql(text)).toBe('/*prepared*/ select a, b from t where c = $1 and d = $2');
  });

  it('leaves quoted text as it is: literals, doubled quotes, quoted names, comment markers inside them', () => {
    const text = `select 'a  b', 'it''s  -- not a comment', "odd  name"
       from t where x = '  '`;
    expect(compactSql(text)).toBe(`select 'a  b', 'it''s  -- not a comment', "odd  name" from t where x = '  '`);
  });

  it('keeps block comments and what touches them', () => {
    expect(compactSql('select  /* two  spaces */  1')).toBe('select /* two  spaces */ 1');
  });

  it('is the same text once compacted', () => {
    const once = compactSql(`select 'x  y',\n  2   -- two\n`);
    expect(compactSql(once)).toBe(once);
  });

  it('sends as written what it does not read: backslashes, dollar quotes, a quote left open', () => {
    for (const text of [
      `select E'a\\n  b'`,
      'select $$ a  b $$',
      'select $body$ a  b $body$',
      "select 'open  ",
      'select "open  ',
      'select /* open  ',
    ]) {
      expect(compactSql(text)).toBe(text);
    }
  });
});
