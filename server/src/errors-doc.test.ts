// docs/errors.md is the catalogue's reader-facing copy: same codes, same statuses, in the order
// a status is tried first. A code added to shared/src/errors.ts without its row fails here.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, errorStatuses, REASON_CODES } from '@campo/shared';
import { describe, expect, it } from 'vitest';

describe('docs/errors.md', () => {
  it('has one row per code of the catalogue, with its statuses', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/errors.md', import.meta.url)), 'utf8');
    const rows = [...doc.matchAll(/^\| `([A-Z_]+)` \| ([\d, ]+) \|/gm)].map((m) => [m[1], m[2]?.trim()]);
    expect(rows.length).toBeGreaterThan(0);
    const documented = new Map(rows.map(([code, status]) => [code, status]));
    expect(documented.size, 'a code has two rows').toBe(rows.length);
    expect(Object.fromEntries(documented)).toEqual(
      Object.fromEntries(ERROR_CODES.map((code) => [code, errorStatuses(code).join(', ')])),
    );
  });

  it('has one row per reason code, under "Reasons"', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/errors.md', import.meta.url)), 'utf8');
    const reasons = doc.slice(doc.indexOf('\n## Reasons'));
    const rows = [...reasons.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(rows).toEqual([...REASON_CODES]);
  });
});
