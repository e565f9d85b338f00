import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../../test/support/pg.ts';

const db = useTestDatabase();
const campo = fileURLToPath(new URL('../../bin/campo.mjs', import.meta.url));

function erpFixture(args: string[], env: Record<string, string | undefined>) {
  const { PATH, HOME } = process.env;
  return spawnSync(process.execPath, [campo, 'erp-fixture', ...args], {
    env: { PATH, HOME, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('campo erp-fixture', () => {
  it('builds the tiny fixture, prints the summary on stdout and progress on stderr', async () => {
    const run = erpFixture(['--scale', 'tiny', '--seed', '7'], { DATABASE_URL: db.url });
    expect(run.stderr).toMatch(/orders\s+100%/);
    expect(run.status).toBe(0);
    const today = new Date();
    const local = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    const asOf = run.stdout.match(/scale tiny, seed 7, as of (\d{4}-\d{2}-\d{2})/)?.[1];
    // default as-of is today (yesterday if the run crossed midnight)
    expect([local(today), local(new Date(today.getTime() - 86_400_000))]).toContain(asOf);
    const items = Number(run.stdout.match(/pedidos_venda_itens\s+([\d,]+)/)?.[1]?.replace(/,/g, ''));
    const { rows } = await db.pool.query<{ n: number; last: string }>(
      "select count(*)::int as n, (select to_char(max(dt_emissao), 'YYYY-MM-DD') from pedidos_venda) as last from pedidos_venda_itens",
    );
    expect(items).toBe(rows[0]?.n);
    expect(items).toBeGreaterThan(500);
    expect((rows[0]?.last ?? '') >= local(new Date(today.getTime() - 3 * 86_400_000)), rows[0]?.last).toBe(true);
  });

  it('exits 3 with one line when the database already has ERP tables', () => {
    const run = erpFixture(['--scale', 'tiny'], { DATABASE_URL: db.url });
    expect(run.status).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^campo: the database already has ERP tables .* --replace/);
  });

  it('rebuilds with --replace, draws the photos with --images and prints JSON with --json', () => {
    const images = mkdtempSync(join(tmpdir(), 'campo-fixture-images-'));
    const run = erpFixture(['--scale', 'tiny', '--replace', '--json', '--as-of', '2025-06-15', '--images', images], {
      DATABASE_URL: db.url,
    });
    expect(run.status).toBe(0);
    const summary = JSON.parse(run.stdout) as {
      scale: string;
      seed: number;
      asOf: string;
      counts: Record<string, number>;
    };
    expect(summary).toMatchObject({ scale: 'tiny', seed: 1, asOf: '2025-06-15' });
    expect(summary.counts.corrent).toBeGreaterThan(80);
    const photos = readdirSync(join(images, 'produtos'));
    expect(photos.length).toBe(summary.counts.images);
    expect(photos.length).toBeGreaterThan(40);
    rmSync(images, { recursive: true, force: true });
  });

  it('exits 2 naming DATABASE_URL when it is missing, and 1 on a bad option', () => {
    const missing = erpFixture(['--scale', 'tiny'], {});
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/DATABASE_URL/);
    const bad = erpFixture(['--scale', 'huge'], { DATABASE_URL: db.url });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/Allowed choices are tiny, small, medium, large/);
    const date = erpFixture(['--as-of', '2025-02-30'], { DATABASE_URL: db.url });
    expect(date.status).toBe(1);
    expect(date.stderr).toMatch(/YYYY-MM-DD/);
  });
});

describe('campo erp-fixture --profile odoo', () => {
  const odoo = useTestDatabase();

  it('builds the same data in the Odoo-shaped tables, refuses a second run and rebuilds with --replace', async () => {
    const run = erpFixture(['--scale', 'tiny', '--profile', 'odoo', '--json', '--as-of', '2025-06-15'], {
      DATABASE_URL: odoo.url,
    });
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as { counts: Record<string, number> };
    const { rows } = await odoo.pool.query<{ partners: number; orders: number; reference: string | null }>(
      `select (select count(*)::int from res_partner where customer_rank > 0 or supplier_rank > 0) as partners,
              (select count(*)::int from sale_order) as orders, to_regclass('public.corrent')::text as reference`,
    );
    expect(rows[0]).toEqual({ partners: expect.any(Number), orders: summary.counts.sale_order, reference: null });
    expect(rows[0]?.partners).toBeGreaterThan(80);
    const again = erpFixture(['--scale', 'tiny', '--profile', 'odoo'], { DATABASE_URL: odoo.url });
    expect(again.status).toBe(3);
    expect(again.stderr).toMatch(/^campo: the database already has ERP tables .* --replace/);
    const replaced = erpFixture(['--scale', 'tiny', '--profile', 'odoo', '--replace', '--json'], {
      DATABASE_URL: odoo.url,
    });
    expect(replaced.status, replaced.stderr).toBe(0);
    const bad = erpFixture(['--profile', 'sap'], { DATABASE_URL: odoo.url });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/Allowed choices are referencia, odoo/);
  });
});
