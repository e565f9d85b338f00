// An app update that changes the local store, in a real browser at 360 px: on build N a
// representative queues an order and moves a funnel card with no network at all. Meanwhile
// build N+1 is deployed, whose store is one version ahead (the fixture build of
// test/support/browser.ts, buildNextStoreFixture: the same source with STORE_VERSION one ahead), and
// the server no longer serves build N. Back online the app says "Atualize o app"; "Atualizar
// agora" installs N+1's service worker and reloads; N+1 migrates the store (RxDB moves every
// collection, outbox and replication meta data included, to the next version) and pushes what N
// queued: the server holds exactly one order under the Idempotency-Key the phone gave it, and
// the card's new stage. The 426 comes from test/support/version-gate.ts: N+1 speaks the same
// protocol as N, so the gate stands in for a release that changes both (docs/sync.md, "The
// rule for the next change of a local schema") and lets the app through once it updates.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SYNC_PROTOCOL_VERSION } from '@campo/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { STORE_VERSION } from '../../client/src/db/schemas.ts';
import {
  addToCart,
  buildNextStoreFixture,
  CLIENT_DIST,
  createProspectCard,
  logInAndSync,
  sendOrder,
  WAIT,
  type WebServer,
} from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { ordersOf } from '../support/builders.ts';
import { clientWithPauta } from '../support/erp.ts';
import { versionGate } from '../support/version-gate.ts';

const LOGIN = 'rep.upgrade@campo.test';
const PASSWORD = 'senha-do-upgrade-1';
const PROSPECT = 'Mercearia Nova Versão';
const gate = versionGate(1);

let nextBuild = '';
let rep: { idEmpresa: number; codVendedor: number };
let client: { id: number; name: string };
let product: { code: string; description: string };
let opportunityId = '';
/** The queued order's document id: its Idempotency-Key on the server. */
let orderKey = '';

/** The fixture build (a few seconds), started before the suite provisions the database. */
let building: Promise<string> | undefined;
beforeAll(() => {
  building = buildNextStoreFixture();
  // Awaited in setUp; until then a failure must not count as unhandled.
  building.catch(() => undefined);
});

const suite = useBrowserSuite({
  password: PASSWORD,
  users: [{ login: LOGIN, name: 'Ulisses Upgrade', role: 'representative' }],
  setUp: async ({ db, rep: first }) => {
    rep = first;
    const c = await clientWithPauta(db.pool, rep);
    client = { id: c.id, name: c.name };
    const p = await db.pool.query<{ code: string; description: string }>(
      `select p.cod_produto as code, p.descricao as description
         from app.vw_produtos p join app.vw_precos pr on pr.id_produto = p.id_produto and pr.id_pauta = $2
        where p.id_empresa = $1 and p.ativo and p.cod_produto is not null
        order by p.id_produto limit 1`,
      [rep.idEmpresa, c.idPauta],
    );
    if (!p.rows[0]) throw new Error("the fixture has no product on the client's pauta");
    product = p.rows[0];
    nextBuild = await (building as Promise<string>);
  },
  server: { wrap: gate.wrap },
});
const db = suite.db;
let server: WebServer;
let page: Page;

beforeAll(() => {
  ({ server, page } = suite);
});

const syncStatus = () => page.getByRole('status', { name: 'Sincronização' });
const card = () => page.getByRole('article', { name: PROSPECT });

async function stageOnServer(id: string): Promise<string | null> {
  const r = await db.pool.query<{ estagio: string }>('select estagio from app.oportunidades where id = $1', [id]);
  return r.rows[0]?.estagio ?? null;
}

const ordersUnderKey = async (key: string) =>
  (await db.pool.query('select id_pedido from app.chaves_idempotencia where chave = $1', [key])).rows.length;
const ordersOfRep = () => ordersOf(db.pool, rep.idEmpresa, rep.codVendedor);

/** The page's IndexedDB databases: RxDB's Dexie storage names one `rxdb-dexie-<db>--<version>--<collection>`. */
function indexedDbNames(): Promise<string[]> {
  return page.evaluate(async () => {
    const idb = (globalThis as unknown as { indexedDB: { databases(): Promise<{ name?: string }[]> } }).indexedDB;
    return (await idb.databases()).map((d) => d.name ?? '').sort();
  });
}
const storeVersions = (names: string[], collection: string) =>
  names.flatMap((n) => {
    const m = /^rxdb-dexie-campo_e\d+_u\d+--(\d+)--(.+)$/.exec(n);
    return m?.[2] === collection ? [Number(m[1])] : [];
  });

/** The databases of the store below the next release's version (RxDB's internal one is version 0 for good). */
const earlierVersions = (names: string[]) =>
  names.filter((n) => {
    const m = /^rxdb-dexie-campo_e\d+_u\d+--(\d+)--(.+)$/.exec(n);
    return !!m && Number(m[1]) < STORE_VERSION + 1 && m[2] !== '_rxdb_internal';
  });

/** The scripts the page has loaded (resource timing), by file name. */
function loadedAssets(): Promise<string[]> {
  return page.evaluate(() => {
    const perf = (globalThis as unknown as { performance: { getEntriesByType(t: string): { name: string }[] } })
      .performance;
    return perf.getEntriesByType('resource').map((e) => new URL(e.name).pathname.split('/').pop() ?? '');
  });
}

describe('an update whose local store changed', () => {
  it('build N syncs a card and opens a new order for a client', async () => {
    await logInAndSync(page, server.url, LOGIN, PASSWORD);
    opportunityId = await createProspectCard(page, PROSPECT);
    await expect.poll(() => stageOnServer(opportunityId), WAIT).toBe('lead');

    await page.goto(`${server.url}/pedidos/novo?cliente=${client.id}`);
    await page.getByRole('heading', { name: 'Novo pedido' }).waitFor(WAIT);
    await page.locator('.chosen-client').getByText(client.name, { exact: true }).waitFor(WAIT);
    // Build N's store is the released version (in Node the fixture flag is not defined).
    expect(storeVersions(await indexedDbNames(), 'pedidos')).toEqual([STORE_VERSION]);
  });

  it('queues an order and moves the card with no network', async () => {
    const context = suite.context;
    await server.stop();
    await context.setOffline(true);

    await addToCart(page, product);
    orderKey = await sendOrder(page, 'Na fila');

    await page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Funil' }).click();
    await card().getByLabel('Mover para').selectOption({ label: 'Proposta' });
    await page.locator('section[data-stage="proposta"]').getByRole('article', { name: PROSPECT }).waitFor(WAIT);
    expect(await ordersOfRep()).toBe(0);
    expect(await stageOnServer(opportunityId)).toBe('lead');
  });

  it('N+1 is deployed: the app updates, migrates its store and pushes the order once and the move', async () => {
    const context = suite.context;
    // The deploy: N+1 is served, and the server no longer serves build N.
    gate.minVersion = SYNC_PROTOCOL_VERSION + 1;
    await server.restart({ webRoot: nextBuild });
    await context.setOffline(false);
    const banner = page.getByRole('alert').filter({ hasText: 'Atualize o app' });
    await banner.waitFor(WAIT);
    // Nothing left the phone: build N stopped at the 426 with its outbox intact.
    expect(await ordersOfRep()).toBe(0);
    expect(await stageOnServer(opportunityId)).toBe('lead');

    // N+1 is let through (it stands for the release the server now requires).
    gate.minVersion = 1;
    await Promise.all([
      page.waitForEvent('load', WAIT),
      banner.getByRole('button', { name: 'Atualizar agora' }).click(),
    ]);

    // The page runs N+1: it loaded scripts only that build has (the schemas' chunk differs).
    const inN = new Set(readdirSync(join(CLIENT_DIST, 'assets')));
    const onlyNext = new Set(readdirSync(join(nextBuild, 'assets')).filter((f) => !inN.has(f)));
    expect(onlyNext.size).toBeGreaterThan(0);
    await expect.poll(async () => (await loadedAssets()).some((a) => onlyNext.has(a)), WAIT).toBe(true);
    // And it migrated the store to the next version: the outbox and the card now live there.
    await expect.poll(async () => storeVersions(await indexedDbNames(), 'pedidos'), WAIT).toContain(STORE_VERSION + 1);
    expect(storeVersions(await indexedDbNames(), 'funil')).toContain(STORE_VERSION + 1);

    // Once migrated, the databases build N's store left behind (emptied by the migration) are gone:
    // no database of an earlier version of the store is left on the phone.
    await expect.poll(async () => earlierVersions(await indexedDbNames()), WAIT).toEqual([]);

    await expect.poll(() => ordersUnderKey(orderKey), WAIT).toBe(1);
    await expect.poll(() => stageOnServer(opportunityId), WAIT).toBe('proposta');
    await expect.poll(() => syncStatus().textContent(), WAIT).toMatch(/Sincronizado às \d\d:\d\d/);
    expect(await ordersOfRep()).toBe(1);
    expect(await page.getByText('Atualize o app').count()).toBe(0);
  });
});
