// `campo serve` checks the database before it listens: a schema that is missing, from another
// release, or damaged since provisioning (a column, view, trigger, policy dropped; a grant
// revoked) makes it refuse to start with exit 3 and one line naming what is missing, instead
// of answering 500 on the first request that touches it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET, testApp } from '../../../test/support/app.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { asServerRole, SERVER_ROLE, useTestDatabase } from '../../../test/support/pg.ts';
import { logInAs } from '../../../test/support/session.ts';
import { provision } from '../provisioning/provision.ts';

const db = useTestDatabase();
const campo = fileURLToPath(new URL('../../bin/campo.mjs', import.meta.url));

/** Starts campo serve; resolves with its exit code and stderr, or 'listening' (then stops it). */
function start(): Promise<{ status: number | null | 'listening'; stderr: string }> {
  const child = spawn(process.execPath, [campo, 'serve', '--port', '0'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: asServerRole(db.url),
      JWT_SECRET: TEST_JWT_SECRET,
      HOST: '127.0.0.1',
      SYNC_REFRESH_SECONDS: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) => {
    let out = '';
    let listening = false;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!listening && /"msg":"listening"/.test(out)) {
        listening = true;
        child.kill('SIGTERM');
      }
    });
    child.once('exit', (status) => resolve({ status: listening ? 'listening' : status, stderr }));
  });
}

async function refusal(): Promise<string> {
  const run = await start();
  expect(run.status).toBe(3);
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
}

describe('campo serve at start-up', () => {
  it('refuses a database where Campo is not provisioned', async () => {
    expect(await refusal()).toBe(
      'campo: schema app is not ready for this server (run campo provision): schema app is not provisioned in this database',
    );
  });

  describe('on a provisioned database', () => {
    beforeAll(async () => {
      await provisionedErp(db.pool);
    });

    it('starts when schema app is what this release needs', async () => {
      expect((await start()).status).toBe('listening');
    });

    it('refuses without pedidos.end_entrega, naming it; after campo provision GET /orders answers 200', async () => {
      await db.pool.query('alter table app.pedidos drop column end_entrega cascade');
      expect(await refusal()).toMatch(
        /^campo: schema app is not ready for this server \(run campo provision\): .*column app\.pedidos\.end_entrega is missing/,
      );
      await provision(db.pool);
      expect((await start()).status).toBe('listening');
      const rep = (
        await db.pool.query<{ id_empresa: number; cod_vendedor: number }>(
          'select id_empresa, cod_vendedor from app.vw_vendedores order by 1, 2 limit 1',
        )
      ).rows[0];
      if (!rep) throw new Error('no representative');
      const app = testApp(db.pool);
      const token = await logInAs(app, db.pool, {
        login: 'rep@preflight.test',
        role: 'representative',
        idEmpresa: rep.id_empresa,
        codVendedor: rep.cod_vendedor,
      });
      const res = await app.request('/api/v1/orders', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    });

    it.each([
      ['a view', 'drop view app.vw_sitpedido cascade', /view app\.vw_sitpedido is missing/],
      ['a trigger', 'drop trigger trg_pedido_aprovado on app.pedidos', /trigger app\.trg_pedido_aprovado is missing/],
      ['a function', 'drop function app.texto_erp(text, integer)', /function app\.texto_erp is missing/],
      ['a policy', 'drop policy vendedor on app.pedidos', /policy vendedor on app\.pedidos is missing/],
      [
        'row-level security',
        'alter table app.pedidos disable row level security',
        /row level security on app\.pedidos/,
      ],
      [
        'a migration function',
        'drop function app.proximo_num_ped_sar(integer)',
        /function app\.proximo_num_ped_sar\(p_empresa integer\) is missing/,
      ],
      [
        'a grant',
        `revoke select on app.vw_produtos from ${SERVER_ROLE}`,
        new RegExp(
          `role ${SERVER_ROLE} lacks SELECT on app\\.vw_produtos \\(campo provision --grant-to ${SERVER_ROLE}\\)`,
        ),
      ],
      [
        "a sequence's grant (the orders' ids are drawn from it)",
        `revoke usage on sequence app.pedidos_id_seq from ${SERVER_ROLE}`,
        new RegExp(`role ${SERVER_ROLE} lacks USAGE on app\\.pedidos_id_seq`),
      ],
    ])('refuses without %s, naming it; campo provision puts it back', async (_what, damage, named) => {
      await db.pool.query(damage);
      expect(await refusal()).toMatch(named);
      await provision(db.pool);
      if (damage.includes('vw_produtos')) await db.pool.query(`grant select on app.vw_produtos to ${SERVER_ROLE}`);
      if (damage.includes('pedidos_id_seq'))
        await db.pool.query(`grant usage on sequence app.pedidos_id_seq to ${SERVER_ROLE}`);
      expect((await start()).status).toBe('listening');
    });

    it('refuses a schema a newer release provisioned', async () => {
      await db.pool.query(
        "insert into app.schema_migrations (version, name, checksum) values ('9999', '9999_future', 'x')",
      );
      expect(await refusal()).toMatch(
        /schema app is at 9999, newer than this release \(\d{4}\): run the newer release$/,
      );
      await db.pool.query("delete from app.schema_migrations where version = '9999'");
    });
  });
});
