// The pull's page read (page.ts) has two ways to a page: a prepared statement for its first
// SHORT_PAGE rows, which is the whole answer for a device catching up, and COPY for the rest of
// a long page. Both must give the same page: the same rows in commit order, the same last
// checkpoint and flags, the same bytes once the C1 characters are mapped (cp1252Utf8) — the
// prepared read gets them through the driver's text parser, COPY as raw bytes.
import { beforeAll, describe, expect, it } from 'vitest';
import { provisionedErp } from '../../../test/support/erp.ts';
import { serverRolePool, useTestDatabase } from '../../../test/support/pg.ts';
import { type BytePage, copyPage, cp1252Utf8, SHORT_PAGE } from './page.ts';

// LATIN1 whatever CAMPO_TEST_ENCODING says: the C1 characters compared exist only there.
const db = useTestDatabase({ encoding: 'LATIN1' });

const TENANT = 9001;
const REP = 7;
/** Rows of the collection: two long pages' worth and some, so both ways are taken. */
const ROWS = SHORT_PAGE * 2 + 57;

interface Row {
  xid: number;
  revisao: number;
  escopo: number | null;
  excluido: boolean;
  dados: string;
}

describe('pull pages, short and long', () => {
  let rows: Row[];

  beforeAll(async () => {
    await provisionedErp(db.pool);
    // Every fourth row is another representative's, one is a deletion, one holds a C1
    // character (U+0080, which LATIN1 stores and Windows-1252 reads as €), and rows come
    // from several transactions so the (xid, revisao) order is not the revision order alone.
    // Some documents are long (40 kB, and one of 300 kB), so a page fills several of the blocks
    // COPY's rows are copied into (256 kB), and one is longer than a block.
    for (let batch = 0; batch < 3; batch++) {
      await db.pool.query(
        `insert into app.sync_alteracoes (id_empresa, colecao, chave, escopo, hash, revisao, documento, xid, excluido, dados)
         select $1, 'clientes', 'k' || g, case when g % 4 = 0 then $2 + 1 when g % 3 = 0 then $2 end, 'h',
                nextval('app.sync_revisao'), 'k' || g, txid_current(), g = 123,
                json_build_object('id', 'k' || g, 'nome', case when g = 77 then 'Caf' || chr(128)
                  when g = 1077 then repeat('G', 300000) when g % 50 = 0 then repeat('m', 40000) else 'Cliente ' || g end)::text
           from generate_series($3::int, $4::int) g`,
        [TENANT, REP, batch * 1000 + 1, batch * 1000 + Math.ceil(ROWS / 3)],
      );
    }
    const { rows: all } = await db.pool.query<Row>(
      `select xid::float8 as xid, revisao::float8 as revisao, escopo, excluido, dados
         from app.sync_alteracoes where id_empresa = $1 and colecao = 'clientes' order by xid, revisao`,
      [TENANT],
    );
    rows = all;
    expect(rows.length).toBeGreaterThan(2 * SHORT_PAGE);
  });

  /** What a page must be: the next `limit` rows of the scope after `after`, as the log holds them. */
  function expected(scope: number | null, after: { xid: number; revisao: number }, limit: number) {
    const page = rows
      .filter((r) => scope === null || r.escopo === null || r.escopo === scope)
      .filter((r) => r.xid > after.xid || (r.xid === after.xid && r.revisao > after.revisao))
      .slice(0, limit);
    const last = page.at(-1);
    return {
      n: page.length,
      special: page.some((r) => r.excluido),
      heldBack: false,
      last: last ? { xid: last.xid, revisao: last.revisao } : null,
      json: `[${page.map((r) => r.dados.replace('\u0080', '€')).join(',')}]`,
    };
  }

  const actual = (p: BytePage) => ({
    n: p.n,
    special: p.special,
    heldBack: p.heldBack,
    last: p.last,
    json: cp1252Utf8(p.join(Buffer.from('['), Buffer.from(']'))).toString('utf8'),
  });

  it('gives the same page whether it is read prepared, through COPY, or both, for every limit and checkpoint', async () => {
    // The server's role, its statements prepared as in production.
    const pool = serverRolePool(db.url);
    const start = { xid: 0, revisao: 0 };
    for (const scope of [REP, null]) {
      const visible = rows.filter((r) => scope === null || r.escopo === null || r.escopo === scope);
      const at = (i: number) => ({ xid: (visible[i] as Row).xid, revisao: (visible[i] as Row).revisao });
      const windows = [
        { after: start, limit: 50 }, // the prepared read's rows are the whole (full) page
        { after: start, limit: SHORT_PAGE }, // the same, at its bound
        { after: start, limit: SHORT_PAGE + 1 }, // a long page: COPY
        { after: start, limit: 5000 }, // every row: COPY, a short page
        { after: at(40), limit: 5000 }, // the rest, long: COPY
        { after: at(visible.length - 30), limit: 5000 }, // a device catching up: prepared alone
        { after: at(visible.length - 1), limit: 5000 }, // nothing new
      ];
      for (const w of windows) {
        const page = await copyPage(pool, {
          idEmpresa: TENANT,
          colecao: 'clientes',
          codVendedor: scope,
          after: w.after,
          limit: w.limit,
        });
        expect(actual(page), JSON.stringify({ scope, ...w })).toEqual(expected(scope, w.after, w.limit));
      }
    }
    // The deletion and the C1 character were in the rows compared.
    expect(rows.some((r) => r.excluido)).toBe(true);
    expect(rows.some((r) => r.dados.includes('\u0080'))).toBe(true);
  });
});
