// A session revoked while its change stream is open (user disabled, password reset) must stop
// hearing of changes: the stream re-checks the session before each event and ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { asServerRole, useTestDatabase } from '../../../test/support/pg.ts';
import { logInAs } from '../../../test/support/session.ts';
import { sse } from '../../../test/support/sse.ts';
import { SYNC_CHANNEL } from '../changelog/notices.ts';
import { createDb } from '../db/kysely.ts';
import { type ChangeHub, createChangeHub } from '../sync/stream.ts';
import { resetPassword, setUserActive } from '../users/service.ts';

const db = useTestDatabase();
const quiet = { info: () => undefined, warn: () => undefined };

describe('revoked sessions and open change streams', () => {
  let hub: ChangeHub;
  let app: ReturnType<typeof testApp>;
  let t1: number;
  const tokens: Record<string, string> = {};
  const opened: { close: () => Promise<unknown> }[] = [];

  const open = async (who: string) => {
    const res = await app.request('/api/v1/sync/stream', { headers: { authorization: `Bearer ${tokens[who]}` } });
    expect(res.status).toBe(200);
    const stream = sse(res);
    opened.push(stream);
    await stream.until((e) => e.event === 'resync');
    return stream;
  };
  const announce = () =>
    db.pool.query('select pg_notify($1, $2)', [
      SYNC_CHANNEL,
      JSON.stringify({ idEmpresa: t1, colecao: 'produtos', codVendedor: null }),
    ]);
  /** Reads until the stream ends; fails if it goes on past the deadline. */
  const endOf = async (stream: ReturnType<typeof sse>) => {
    const err = await stream.until(() => false, 15_000).catch((e: Error) => e);
    expect((err as Error).message).toBe('the stream ended');
  };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    t1 = erp.tenants[0] as number;
    hub = createChangeHub({ connectionString: asServerRole(db.url), log: quiet, retryBaseMs: 50 });
    // Short heartbeats, so a revoked stream without any change to hear still ends quickly.
    app = testApp(db.pool, { syncHeartbeatMs: 200 }, { hub });
    for (const who of ['gone', 'reset', 'stays']) {
      tokens[who] = await logInAs(app, db.pool, { login: `${who}@revoke.test`, role: 'manager', idEmpresa: t1 });
    }
  });

  afterAll(async () => {
    for (const s of opened) await s.close();
    await hub?.close();
  });

  it('ends the stream of a user who is disabled, and of one whose password is reset; others go on', async () => {
    const gone = await open('gone');
    const reset = await open('reset');
    const stays = await open('stays');
    await setUserActive(createDb(db.pool), 'gone@revoke.test', false);
    await resetPassword(createDb(db.pool), 'reset@revoke.test', 'uma-senha-nova-1');
    await announce();
    await endOf(gone);
    await endOf(reset);
    // The session still good hears the change and keeps its heartbeats.
    await stays.until((e) => e.event === 'change' && JSON.parse(e.data).colecao === 'produtos');
    await stays.until((e) => e.event === 'heartbeat');
    // And the revoked token cannot open a new one.
    const again = await app.request('/api/v1/sync/stream', { headers: { authorization: `Bearer ${tokens.gone}` } });
    expect(again.status).toBe(401);
  });
});
