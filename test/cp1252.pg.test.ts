// Old Windows ERPs store curly quotes, "–" and "€" as bytes 0x80-0x9F of LATIN1 columns.
// PostgreSQL hands them over as the control characters U+0080-U+009F; Campo reads them as
// Windows-1252 wherever ERP text reaches it (server/src/db/pool.ts): the REST answers and the
// replication documents built in SQL from the views show “Premium” – 5 €, not "Premium 5".
import type { Order, OrderSummary } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './support/app.ts';
import { postOrder } from './support/builders.ts';
import { orderableClient, provisionedErp } from './support/erp.ts';
import { useTestDatabase } from './support/pg.ts';
import { apiAs, logInAs } from './support/session.ts';

// Bytes 0x80-0x9F as C1 characters exist only in a LATIN1 database (WIN1252 reads them as “ ” – €).
const db = useTestDatabase({ encoding: 'LATIN1' });
const SHOWN = '“Premium” – 5 € D’Ávila';

describe('ERP text holding Windows-1252 bytes', () => {
  let api: ReturnType<typeof apiAs>;
  let idProduto: number;
  let idCliente: number;
  let app: ReturnType<typeof testApp>;
  let token: string;

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const rep = erp.reps[0];
    if (!rep) throw new Error('no representative');
    ({ idProduto, idCliente } = await orderableClient(db.pool, rep));
    // chr() in a LATIN1 database gives the byte itself: 0x93 and 0x94 are Windows-1252's curly
    // double quotes, 0x96 the en dash, 0x80 the euro sign and 0x92 the right single quote.
    await db.pool.query(
      `update produtos set descricao = chr(147) || 'Premium' || chr(148) || ' ' || chr(150) || ' 5 ' || chr(128)
                                       || ' D' || chr(146) || convert_from('\\xc1'::bytea, 'LATIN1') || 'vila'
        where id_produto = $1`,
      [idProduto],
    );
    const stored = await db.pool.query<{ hex: string }>(
      "select encode(convert_to(descricao, 'LATIN1'), 'hex') as hex from produtos where id_produto = $1",
      [idProduto],
    );
    expect(stored.rows[0]?.hex.startsWith('93')).toBe(true);
    app = testApp(db.pool);
    token = await logInAs(app, db.pool, {
      login: 'rep@cp1252.test',
      role: 'representative',
      idEmpresa: rep.idEmpresa,
      codVendedor: rep.codVendedor,
    });
    api = apiAs(app, token);
  });

  it('answers the REST catalog with the Windows-1252 characters', async () => {
    const res = await api('GET', `/catalog/${idProduto}`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain(JSON.stringify(SHOWN).slice(1, -1));
  });

  it('sends them in the replication documents built in SQL', async () => {
    let found = false;
    let checkpoint: unknown = null;
    for (let page = 0; page < 100 && !found; page++) {
      const qs = checkpoint ? `&checkpoint=${encodeURIComponent(JSON.stringify(checkpoint))}` : '';
      const res = await api('GET', `/sync/produtos/pull?limit=500${qs}`);
      expect(res.status, await res.clone().text()).toBe(200);
      const body = (await res.json()) as { documents: unknown[]; checkpoint: unknown };
      const text = JSON.stringify(body.documents);
      expect(text).not.toMatch(/[\u0080-\u009f]/);
      if (text.includes(JSON.stringify(SHOWN).slice(1, -1))) found = true;
      if (body.documents.length === 0) break;
      checkpoint = body.checkpoint;
    }
    expect(found).toBe(true);
  });

  it('finds it by search typed with plain characters', async () => {
    const res = await api('GET', `/catalog?q=${encodeURIComponent("d'avila")}`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain(JSON.stringify(SHOWN).slice(1, -1));
  });

  it('writes the order copy in its LATIN1 spelling instead of failing or dropping the characters', async () => {
    const res = await fetchOrder();
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: number };
    const line = await db.pool.query<{ descricao: string }>(
      'select descricao from app.pedido_itens where id_pedido = $1',
      [id],
    );
    expect(line.rows).toEqual([{ descricao: '"Premium" - 5 EUR D\'Ávila' }]);
  });

  it("answers the order as it stored it: the client's name and the lines in their LATIN1 spelling", async () => {
    // The client's name with the same bytes (issue #50: the answer spelled it as the ERP, the
    // stored order, GET /orders/{id} and the list in LATIN1). The order names the client by its
    // trade name first (clientDisplayName): the bytes go there.
    await db.pool.query(
      `update corrent set nome_fantasia = chr(147) || 'Concei' || convert_from('\\xe7e3'::bytea, 'LATIN1') || 'o'
                                         || chr(148) || ' ' || chr(150) || ' Emp' || convert_from('\\xf3'::bytea, 'LATIN1')
                                         || 'rio ' || chr(128)
        where id_corrent = $1`,
      [idCliente],
    );
    const res = await fetchOrder();
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as Order;
    const storedName = '"Conceição" - Empório EUR';
    const storedLine = '"Premium" - 5 EUR D\'Ávila';
    expect(created.nomeCliente).toBe(storedName);
    expect(created.itens[0]?.descricao).toBe(storedLine);
    const read = (await (await api('GET', `/orders/${created.id}`)).json()) as Order;
    expect(read.nomeCliente).toBe(created.nomeCliente);
    expect(read.itens.map((i) => [i.codProduto, i.descricao, i.categoria])).toEqual(
      created.itens.map((i) => [i.codProduto, i.descricao, i.categoria]),
    );
    const list = (await (await api('GET', `/orders?idCliente=${idCliente}`)).json()) as { items: OrderSummary[] };
    expect(list.items.find((o) => o.id === created.id)?.nomeCliente).toBe(storedName);
  });

  function fetchOrder() {
    return postOrder(apiAs(app, token), { idCliente, itens: [{ idProduto, quantidade: 1 }] });
  }
});
