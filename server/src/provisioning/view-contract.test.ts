// The views' contract against the two other places that name the views' columns: the row
// types the server compiles against (db/types.ts, generated from the provisioned views) and
// the integrator's guide (docs/erp-contract.md, which prints the contract). The provisioned
// views themselves are compared in check.pg.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderViewContract, VIEW_CONTRACT } from './view-contract.ts';

const TYPES = fileURLToPath(new URL('../db/types.ts', import.meta.url));
const DOC = fileURLToPath(new URL('../../../docs/erp-contract.md', import.meta.url));
const START = '<!-- view-contract:start (generated from server/src/provisioning/view-contract.ts) -->';
const END = '<!-- view-contract:end -->';

/** `AppVwVendedorLimites` -> `vw_vendedor_limites`, with each interface's column names. */
function viewsInTypes(): Map<string, string[]> {
  const text = readFileSync(TYPES, 'utf8');
  const views = new Map<string, string[]>();
  for (const m of text.matchAll(/^export interface App(Vw\w+) \{\n([\s\S]*?)^\}/gm)) {
    const name = (m[1] ?? '').replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
    views.set(
      name,
      [...(m[2] ?? '').matchAll(/^ {2}(\w+):/gm)].map((c) => c[1] ?? ''),
    );
  }
  return views;
}

describe('the views contract', () => {
  it('declares every view column db/types.ts names, and no other', () => {
    const types = viewsInTypes();
    expect(types.size).toBeGreaterThan(20);
    const declared = new Map(
      VIEW_CONTRACT.filter((v) => v.kind === 'view').map((v) => [v.name, v.columns.map((c) => c.name).sort()]),
    );
    expect(Object.fromEntries(declared)).toEqual(
      Object.fromEntries([...types].map(([name, cols]) => [name, [...cols].sort()])),
    );
  });

  it('gives every key, reference and required column a declared column', () => {
    for (const v of VIEW_CONTRACT) {
      const names = new Set(v.columns.map((c) => c.name));
      for (const k of v.key ?? []) expect(names.has(k), `${v.name} key ${k}`).toBe(true);
      for (const r of v.references ?? []) {
        const target = VIEW_CONTRACT.find((t) => t.name === r.view);
        expect(target, `${v.name} -> ${r.view}`).toBeDefined();
        for (const c of r.columns) expect(names.has(c), `${v.name}.${c}`).toBe(true);
        for (const c of r.as)
          expect(
            target?.columns.some((t) => t.name === c),
            `${r.view}.${c}`,
          ).toBe(true);
      }
    }
  });

  it('is what docs/erp-contract.md prints (CAMPO_WRITE_DOCS=1 rewrites the page)', () => {
    const doc = readFileSync(DOC, 'utf8');
    const from = doc.indexOf(START);
    const to = doc.indexOf(END);
    expect(from, `docs/erp-contract.md lacks the marker ${START}`).toBeGreaterThan(-1);
    expect(to).toBeGreaterThan(from);
    const expected = `${doc.slice(0, from + START.length)}\n\n${renderViewContract()}\n\n${doc.slice(to)}`;
    if (process.env.CAMPO_WRITE_DOCS === '1' && expected !== doc) writeFileSync(DOC, expected);
    expect(doc).toBe(expected);
  });
});
