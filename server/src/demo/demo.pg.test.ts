import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  addDays,
  businessDate,
  type CatalogPage,
  type FlexBalancePage,
  type Health,
  type OrderDetail,
  type OrderSummary,
  type RouteDay,
  type Session,
  type Visit,
  type VisitSummary,
} from '@campo/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_FLEX_BALANCE } from './money.ts';
import { DEMO_PASSWORD } from './users.ts';

const campo = fileURLToPath(new URL('../../bin/campo.mjs', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'campo-demo-test-'));
// Reachable by the postgres OS user when the tests run as root, as a checkout folder would be.
chmodSync(dataDir, 0o755);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs `campo demo` until the server listens, hands its port to `use`, then stops it with Ctrl-C. */
async function withDemo(use: (port: number, log: () => string) => Promise<void>): Promise<string> {
  const child = spawn(process.execPath, [campo, 'demo', '--scale', 'tiny', '--data', dataDir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'info' },
  });
  let log = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const read = (d: Buffer) => {
      log += d.toString();
      const m = /"port":(\d+)[^\n]*"msg":"listening"/.exec(log);
      if (m) resolve(Number(m[1]));
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then((code) => reject(new Error(`demo exited with ${code}:\n${log}`)));
  });
  try {
    await use(port, () => log);
  } finally {
    child.kill('SIGINT');
  }
  expect(await exited).toBe(0);
  return log;
}

describe('campo demo', () => {
  it('builds, provisions and serves the demo ERP, then keeps it for the next run', async () => {
    const first = await withDemo(async (port) => {
      const health = (await (await fetch(`http://127.0.0.1:${port}/api/v1/health`)).json()) as Health;
      expect(health.database).toMatchObject({ reachable: true });
      expect(health.database.schemaVersion).not.toBeNull();
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'rep1@demo.campo', password: DEMO_PASSWORD }),
      });
      expect(res.status).toBe(200);
      const session = (await res.json()) as Session;
      expect(session.user.role).toBe('representative');
      // Push is configured: the demo made its own VAPID keys.
      const key = await fetch(`http://127.0.0.1:${port}/api/v1/notifications/vapid-public-key`, {
        headers: { authorization: `Bearer ${session.token}` },
      });
      expect(key.status).toBe(200);
      // The reference ERP's products have photos, drawn into the demo's images folder.
      const auth = { authorization: `Bearer ${session.token}` };
      const catalog = (await (
        await fetch(`http://127.0.0.1:${port}/api/v1/catalog?pageSize=20`, { headers: auth })
      ).json()) as CatalogPage;
      const pictured = catalog.items.find((item) => item.image !== null);
      const photo = await fetch(`http://127.0.0.1:${port}/api/v1/catalog/${pictured?.id}/image?size=thumb`, {
        headers: auth,
      });
      expect(photo.status).toBe(200);
      expect(photo.headers.get('content-type')).toBe('image/webp');
      // The money rules are at work: flex on, and the representative starts with a balance.
      const manager = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'gerente1@demo.campo', password: DEMO_PASSWORD }),
      });
      const bearer = { authorization: `Bearer ${((await manager.json()) as Session).token}` };
      const rules = await fetch(`http://127.0.0.1:${port}/api/v1/catalog/company/money-rules`, { headers: bearer });
      expect(await rules.json()).toEqual({
        creditPolicy: 'flag',
        flexCreditSharePercent: 50,
        flexMaxBeyondCeilingPoints: 5,
      });
      const balances = await fetch(`http://127.0.0.1:${port}/api/v1/flex/balances`, { headers: bearer });
      const page = (await balances.json()) as FlexBalancePage;
      expect(page.items.find((b) => b.codVendedor === session.user.codVendedor)?.saldo).toBe(DEMO_FLEX_BALANCE);
      // A history to look at: orders invoiced in full and in part, one approved, one waiting.
      const rep = { authorization: `Bearer ${session.token}` };
      const list = await fetch(`http://127.0.0.1:${port}/api/v1/orders?pageSize=50`, { headers: rep });
      const orders = ((await list.json()) as { items: OrderSummary[] }).items;
      expect(orders.map((o) => o.status).sort()).toEqual(['approved', 'approved', 'invoiced', 'pending_approval']);
      const details = await Promise.all(
        orders.map(async (o) => {
          const res = await fetch(`http://127.0.0.1:${port}/api/v1/orders/${o.id}`, { headers: rep });
          return (await res.json()) as OrderDetail;
        }),
      );
      const invoiced = details.filter((d) => d.invoices.length > 0);
      expect(invoiced.map((d) => d.status).sort()).toEqual(['approved', 'invoiced']);
      const part = invoiced.find((d) => d.status === 'approved');
      expect(part?.itens.some((l) => (l.quantidadeAberta ?? 0) > 0)).toBe(true);
      expect(part?.itens.some((l) => l.quantidadeAberta === 0)).toBe(true);
      // A field day (demo/visits.ts), as the representative's supervisor sees it at mid-afternoon.
      const supervisor = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'sup1@demo.campo', password: DEMO_PASSWORD }),
      });
      const sup = { authorization: `Bearer ${((await supervisor.json()) as Session).token}` };
      const get = async <T>(path: string): Promise<T> => {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, { headers: sup });
        expect(res.status, path).toBe(200);
        return (await res.json()) as T;
      };
      const cod = session.user.codVendedor;
      const team = (await get<VisitSummary>('/visits/summary')).items;
      const today = team.find((r) => r.codVendedor === cod);
      // A teammate without a login has a day too, stopped before the afternoon's last visits.
      expect(team.filter((r) => r.codVendedor !== cod).map((r) => [r.visitas, r.longe, r.semPosicao])).toEqual([
        [4, 1, 1],
      ]);
      expect(today).toMatchObject({
        planejados: 9,
        visitados: 8,
        visitas: 9,
        comPedido: 3,
        semPosicao: 1,
        longe: 1,
      });
      expect(Object.fromEntries(today?.semPedidoPorMotivo.map((m) => [m.motivo, m.visitas]) ?? [])).toEqual({
        Outro: 1,
        Fechado: 1,
        'Estoque alto': 1,
        'Comprador ausente': 1,
        'Sem necessidade': 1,
      });
      const visits = (await get<{ items: Visit[] }>(`/visits?codVendedor=${cod}&pageSize=50`)).items;
      expect(visits.filter((v) => v.estado === 'aberta')).toHaveLength(1);
      expect(visits.find((v) => v.motivo === 'Outro')?.observacao).toMatch(/reforma/);
      expect(visits.find((v) => v.motivo === 'Fechado')?.foto).toBe(true);
      const route = await get<RouteDay>(`/visits/route?codVendedor=${cod}`);
      expect(route.resumo).toEqual({ planejados: 9, visitados: 8, comPedido: 3, extras: 1 });
      const yesterday = addDays(businessDate(), -1);
      const before = await get<RouteDay>(`/visits/route?codVendedor=${cod}&data=${yesterday}`);
      expect(before.clientes.map((c) => c.estado).sort()).toEqual([
        'nao_visitado',
        'nao_visitado',
        'nao_visitado',
        'visitado_sem_pedido',
        'visitado_sem_pedido',
        'visitado_sem_pedido',
      ]);
      // The closed shop had no position in the ERP: its check-in waits for the supervisor.
      const proposals = await get<{ total: number }>(`/visit-positions?codVendedor=${cod}`);
      expect(proposals.total).toBe(1);
    });
    expect(first).toMatch(/creating the reference ERP \(tiny\)/);
    expect(first).toMatch(/gerente1@demo\.campo/);
    expect(first).toMatch(/product photos: \d+ drawn/);

    const second = await withDemo(async () => undefined);
    expect(second).not.toMatch(/creating the reference ERP/);
    expect(second).toMatch(/app schema up to date/);
    expect(second).not.toMatch(/product photos/);
    // Two runs of `campo demo`, the first building the small ERP and its photos: a minute alone,
    // more beside the other test files on two cores.
  }, 240_000);
});
