// A visit's id is the device's UUID, unique everywhere (docs/visits.md, "One visit per id"): a
// representative of another tenant naming it, by REST or by push, writes nothing under it and
// learns nothing of it, and the owner keeps working with its visit and its photo. And the same
// check-in sent several times at once (a retry crossing its original) answers as it answers sent
// in a row: one 201, then the visit, never a refusal of the representative's own visit.
import { randomUUID } from 'node:crypto';
import type { Problem, SyncVisit, Visit, VisitReason } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { png } from '../../../test/fixtures/images.ts';
import { testApp } from '../../../test/support/app.ts';
import { type Api, aClientOf, aPushedVisit, aRepresentative } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { waitingOnLocks } from '../../../test/support/locks.ts';
import { mentionsNumber } from '../../../test/support/mentions.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';
import { apiAs, logInAs } from '../../../test/support/session.ts';

const db = useTestDatabase();

const now = () => new Date().toISOString();
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

interface Rep {
  api: Api;
  token: string;
  idEmpresa: number;
  codVendedor: number;
  idCliente: number;
}

describe('visit ids', () => {
  let app: ReturnType<typeof testApp>;
  let mine: Rep;
  let theirs: Rep;

  const photo = (r: Rep, id: string) =>
    app.request(`/api/v1/visits/${id}/photo`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${r.token}`, 'content-type': 'image/png' },
      body: png(3, 3),
    });
  const checkIn = (r: Rep, id: string) =>
    r.api('POST', '/visits', { id, idCliente: r.idCliente, em: now(), posicao: null });
  const push = (r: Rep, doc: Partial<SyncVisit>) =>
    r.api('POST', '/sync/visitas/push', [{ assumedMasterState: null, newDocumentState: doc }]);
  const visitDoc = (r: Rep, id: string): Partial<SyncVisit> => aPushedVisit(r.idCliente, { id, entradaEm: now() });
  const rows = async (id: string) =>
    (
      await db.pool.query<{ id_empresa: number; cod_vendedor: number }>(
        'select id_empresa, cod_vendedor from app.visitas where chave = $1 order by id',
        [id],
      )
    ).rows;
  const photos = async (id: string) =>
    (
      await db.pool.query<{ id_empresa: number; largura: number }>(
        'select id_empresa, largura from app.visita_fotos where chave_visita = $1',
        [id],
      )
    ).rows;
  /** Closes whatever visit the representative has open, so that a check-in may open one. */
  async function closeOpen(r: Rep) {
    const open = await db.pool.query<{ chave: string }>(
      'select chave from app.visitas where id_empresa = $1 and cod_vendedor = $2 and saida_em is null',
      [r.idEmpresa, r.codVendedor],
    );
    const reasons = (await (await r.api('GET', '/visit-reasons')).json()) as { items: VisitReason[] };
    const plain = reasons.items.find((x) => x.ativo && !x.exigeFoto && !x.exigeObservacao);
    for (const { chave } of open.rows) {
      const res = await r.api('POST', `/visits/${chave}/checkout`, { em: later(1), idMotivo: plain?.id });
      expect(res.status).toBe(200);
    }
  }

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1, t2] = erp.tenants;
    if (!t1 || !t2) throw new Error('the tiny fixture lacks two tenants');
    app = testApp(db.pool);
    const signIn = async (login: string, tenant: number): Promise<Rep> => {
      const r = await aRepresentative(db.pool, erp, { tenant });
      const token = await logInAs(app, db.pool, {
        login,
        role: 'representative',
        idEmpresa: r.idEmpresa,
        codVendedor: r.codVendedor,
      });
      return { ...r, token, api: apiAs(app, token), idCliente: (await aClientOf(db.pool, r)).idCliente };
    };
    mine = await signIn('rep@ids-visitas.test', t1);
    theirs = await signIn('rep@ids-visitas-2.test', t2);
  });

  it("refuses another tenant's visit id, by REST and by push, and leaves its visit and photo to its owner", async () => {
    await closeOpen(theirs);
    await closeOpen(mine);
    const id = randomUUID();
    expect((await checkIn(theirs, id)).status).toBe(201);

    // REST: the id is taken; nothing of the other tenant's visit in the answer.
    const rest = await checkIn(mine, id);
    expect(rest.status).toBe(409);
    const problem = (await rest.json()) as Problem & Record<string, unknown>;
    expect(problem.code).toBe('VISIT_ID_TAKEN');
    expect(mentionsNumber(JSON.stringify(problem), theirs.idCliente)).toBe(false);
    // Push: refused per document, as pushed.
    const [pushed] = (await (await push(mine, visitDoc(mine, id))).json()) as SyncVisit[];
    expect(pushed).toMatchObject({ id, idCliente: mine.idCliente, recusa: { code: 'VISIT_ID_TAKEN' } });
    expect(await rows(id)).toEqual([{ id_empresa: theirs.idEmpresa, cod_vendedor: theirs.codVendedor }]);

    // A photo or a check-out under it: 404, as an id that does not exist; no photo written.
    expect((await photo(mine, id)).status).toBe(404);
    expect((await mine.api('POST', `/visits/${id}/checkout`, { em: later(5), idMotivo: 1 })).status).toBe(404);
    expect((await mine.api('GET', `/visits/${id}`)).status).toBe(404);
    expect(await photos(id)).toEqual([]);

    // The owner's visit is untouched and its photo goes where it belongs.
    expect((await photo(theirs, id)).status).toBe(204);
    expect(await photos(id)).toEqual([{ id_empresa: theirs.idEmpresa, largura: 3 }]);
    const own = (await (await theirs.api('GET', `/visits/${id}`)).json()) as Visit;
    expect(own).toMatchObject({ id, idCliente: theirs.idCliente, codVendedor: theirs.codVendedor, estado: 'aberta' });
    // The other tenant's representative has no visit open for it.
    expect((await checkIn(mine, randomUUID())).status).toBe(201);
    await closeOpen(mine);
    await closeOpen(theirs);
  });

  it("refuses an id another tenant's photo holds (sent before its visit), and the photo stays its owner's", async () => {
    await closeOpen(mine);
    const id = randomUUID();
    expect((await photo(theirs, id)).status).toBe(204);
    expect((await checkIn(mine, id)).status).toBe(409);
    const [pushed] = (await (await push(mine, visitDoc(mine, id))).json()) as SyncVisit[];
    expect(pushed?.recusa?.code).toBe('VISIT_ID_TAKEN');
    expect((await photo(mine, id)).status).toBe(404);
    expect(await rows(id)).toEqual([]);
    expect(await photos(id)).toEqual([{ id_empresa: theirs.idEmpresa, largura: 3 }]);
    await closeOpen(theirs);
    expect((await checkIn(theirs, id)).status).toBe(201);
    await closeOpen(theirs);
  });

  /** Holds app.visitas against writes until released, so requests line up at their insert. */
  async function holdVisits() {
    const client = await db.pool.connect();
    await client.query('begin');
    await client.query('lock table app.visitas in share mode');
    return async () => {
      await client.query('commit');
      client.release();
    };
  }

  it('answers three identical check-ins at once as three in a row: 201, then the visit twice', async () => {
    for (let round = 0; round < 3; round += 1) {
      await closeOpen(mine);
      const id = randomUUID();
      const body = { id, idCliente: mine.idCliente, em: now(), posicao: null };
      const release = await holdVisits();
      const sent = Promise.all([0, 1, 2].map(() => mine.api('POST', '/visits', body)));
      try {
        await waitingOnLocks(db.pool, 3, sent);
      } finally {
        await release();
      }
      const answers = await sent;
      const got = await Promise.all(answers.map(async (r) => [r.status, ((await r.json()) as { id?: string }).id]));
      expect(got.sort()).toEqual([
        [200, id],
        [200, id],
        [201, id],
      ]);
      expect(await rows(id)).toHaveLength(1);
    }
    await closeOpen(mine);
  });

  it("answers the same visit pushed twice at once with the representative's visit, never a refusal", async () => {
    for (let round = 0; round < 3; round += 1) {
      await closeOpen(mine);
      const doc = visitDoc(mine, randomUUID());
      const release = await holdVisits();
      const sent = Promise.all([push(mine, doc), push(mine, doc)]);
      try {
        await waitingOnLocks(db.pool, 2, sent);
      } finally {
        await release();
      }
      for (const res of await sent) {
        expect(res.status).toBe(200);
        const answer = (await res.json()) as SyncVisit[];
        // Taken as pushed (nothing to adopt) or answered with the stored visit: no refusal.
        expect(answer.every((v) => (v.recusa ?? null) === null)).toBe(true);
      }
      expect(await rows(doc.id as string)).toHaveLength(1);
    }
    await closeOpen(mine);
  });
});
