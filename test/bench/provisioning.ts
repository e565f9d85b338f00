// Provisioning on the large reference ERP: how long the fixture takes to create, and how long
// `campo provision` takes on it the first time and the second time (which must change nothing).
// The cluster keeps PostgreSQL's durable defaults, as a real ERP server would.
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.ts';
import { createPool } from '../../server/src/db/pool.ts';
import { createErpFixture } from '../../server/src/erp-fixture/generate.ts';
import { provision } from '../../server/src/provisioning/provision.ts';
import { table, writeSection } from './report.ts';

export async function benchProvisioning(): Promise<void> {
  const server = await startEmbeddedPostgres({});
  try {
    const admin = createPool(server.url(), 1);
    await admin.query("create database erp encoding 'LATIN1' lc_collate 'C' lc_ctype 'C' template template0");
    await admin.end();
    const pool = createPool(server.url('erp'), 4);
    try {
      process.stderr.write('creating the large fixture...\n');
      const fixture = await createErpFixture(pool, { scale: 'large', asOf: new Date('2026-06-15T12:00:00Z') });
      // The reference ERP ships the indexes Campo needs; a bare ERP makes provisioning build them.
      const first = await provision(pool, {});
      const second = await provision(pool, {});
      if (!second.upToDate) throw new Error('the second provisioning run changed something');
      const rows = fixture.counts.pedidos_venda_itens ?? 0;
      const body = [
        'Command: `pnpm bench provisioning` (PostgreSQL 18, durable settings, the `large` fixture with',
        `${rows.toLocaleString('en')} ERP order lines).`,
        '',
        table(
          ['what', 'time'],
          [
            ['create the large fixture (`campo erp-fixture --scale large`)', `${(fixture.ms / 1000).toFixed(1)} s`],
            ['`campo provision`, first run', `${first.durationMs} ms`],
            ['`campo provision`, second run (up to date)', `${second.durationMs} ms`],
          ],
        ),
      ].join('\n');
      writeSection('provisioning', 'Provisioning and the large fixture', body);
      process.stdout.write(`${body}\n`);
    } finally {
      await pool.end();
    }
  } finally {
    await server.stop();
  }
}
