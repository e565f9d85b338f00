// Why pull pages are not offered to HTTP caches (docs/deployment.md, "Scaling past one
// machine", 4): the change log keeps one row per document and moves it to a later place when
// the document changes, so the very same request (checkpoint, limit) answers other documents
// after a change, and a short page grows. A stale page is safe (the device gets the newer
// version further on), but never immutable; the answers say no-store. The process's own page
// cache (page-cache.ts) answers a kept full page again on purpose; it is off here, to see
// what the log answers.
import type { SyncProduct, SyncPull } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { signedIn } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import type { apiAs } from '../../../test/support/session.ts';

const db = useTestDatabase();

describe('pull pages are not immutable', () => {
  let api: ReturnType<typeof apiAs>;
  let tenant: number;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const rep = erp.reps[0];
    if (!rep) throw new Error('no representative in the fixture');
    tenant = rep.idEmpresa;
    const app = testApp(db.pool, { syncPageCache: { maxBytes: 0 } });
    api = await signedIn(app, db.pool, {
      login: 'rep@cache.test',
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
    });
  });

  const page = async (limit: number, checkpoint?: string) => {
    const res = await api(
      'GET',
      `/sync/produtos/pull?${new URLSearchParams({ limit: String(limit), ...(checkpoint ? { checkpoint } : {}) })}`,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    return (await res.json()) as SyncPull;
  };

  async function changePriceOf(idProduto: number): Promise<void> {
    const { rowCount } = await db.pool.query(
      `update pautas_precos set preco = preco + 1.23
        where id_empresa = $1 and id_produto = $2
          and id_pauta = (select min(id_pauta) from pautas_precos where id_empresa = $1 and id_produto = $2)`,
      [tenant, idProduto],
    );
    expect(rowCount).toBe(1);
    expect((await api('POST', '/catalog/sync')).status).toBe(200);
  }

  it('answers the same request with other documents once one of its documents changed', async () => {
    const first = await page(5);
    expect(first.documents).toHaveLength(5);
    const moved = Number(first.documents[0]?.id);
    await changePriceOf(moved);

    const again = await page(5);
    const ids = again.documents.map((d) => Number(d.id));
    expect(ids).toHaveLength(5);
    expect(ids).not.toContain(moved);
    expect(ids.slice(0, 4)).toEqual(first.documents.slice(1).map((d) => Number(d.id)));
    // The stale first page was safe: the changed product comes later, with its new price.
    const rest: SyncProduct[] = [];
    let checkpoint = first.checkpoint;
    for (;;) {
      const next = await page(500, checkpoint);
      rest.push(...(next.documents as SyncProduct[]));
      checkpoint = next.checkpoint;
      if (next.documents.length < 500) break;
    }
    const later = rest.filter((d) => Number(d.id) === moved);
    expect(later).toHaveLength(1);
    expect(later[0]).not.toEqual(first.documents[0]);

    // The last, short page grows with the next change.
    expect((await page(5, checkpoint)).documents).toEqual([]);
    await changePriceOf(moved);
    expect((await page(5, checkpoint)).documents.map((d) => Number(d.id))).toEqual([moved]);
  });
});
