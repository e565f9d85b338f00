// The sales funnel against a real (LATIN1) database: CRUD, stages, the lost reason, the
// portfolio check, another rep's card, the idempotent POST by UUID and the conflict rule.
import { randomUUID } from 'node:crypto';
import type { Opportunity, Problem } from '@campo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { type Api, aClientOf, anOrder, aRepresentative, type Rep, signedIn } from '../../../test/support/builders.ts';
import { provisionedErp } from '../../../test/support/erp.ts';
import { useTestDatabase } from '../../../test/support/pg.ts';

const db = useTestDatabase();

describe('sales funnel', () => {
  let rep: Api;
  let rep2: Api;
  let manager: Api;
  let foreignRep: Api;
  let myClient: { id: number; nome: string };
  let otherClient: number;
  let otherRepOrder: number;

  const body = async <T>(res: Response) => (await res.json()) as T;
  const create = async (extra: Record<string, unknown> = {}) => {
    const res = await rep('POST', '/funil', { id: randomUUID(), nomeProspect: 'Padaria Nova', ...extra });
    expect(res.status).toBe(201);
    return body<Opportunity>(res);
  };

  beforeAll(async () => {
    const erp = await provisionedErp(db.pool);
    const [t1, t2] = erp.tenants as [number, number];
    const r1 = await aRepresentative(db.pool, erp, { tenant: t1 });
    const r2 = await aRepresentative(db.pool, erp, { besides: r1 });
    const rf = await aRepresentative(db.pool, erp, { tenant: t2 });
    const app = testApp(db.pool);
    const representative = (login: string, r: Rep) =>
      signedIn(app, db.pool, { login, role: 'representative', idEmpresa: r.idEmpresa, codVendedor: r.codVendedor });
    rep = await representative('rep@funil.test', r1);
    rep2 = await representative('rep2@funil.test', r2);
    manager = await signedIn(app, db.pool, { login: 'ger@funil.test', role: 'manager', idEmpresa: t1 });
    foreignRep = await representative('fr@funil.test', rf);
    const mine = await aClientOf(db.pool, r1);
    // Named as every screen names a client: the trade name first.
    const shown = await db.pool.query<{ nome: string }>(
      `select coalesce(nullif(btrim(nome_fantasia), ''), razao_social) as nome from app.vw_clientes where id_cliente = $1`,
      [mine.idCliente],
    );
    myClient = { id: mine.idCliente, nome: shown.rows[0]?.nome ?? mine.razaoSocial };
    const o = await anOrder(db.pool, r2);
    otherClient = o.idCliente;
    otherRepOrder = o.id;
  });

  it('creates, lists, changes stage and deletes', async () => {
    const a = await create({ empresaProspect: 'Padaria Nova Ltda', valor: 1500.5, previsaoFechamento: '2027-03-31' });
    expect(a).toMatchObject({
      estagio: 'lead',
      idCliente: null,
      nomeProspect: 'Padaria Nova',
      empresaProspect: 'Padaria Nova Ltda',
      valor: 1500.5,
      previsaoFechamento: '2027-03-31',
      motivoPerda: null,
    });
    const b = await create({ idCliente: myClient.id, nomeProspect: undefined, estagio: 'proposta' });
    expect(b).toMatchObject({ idCliente: myClient.id, nomeCliente: myClient.nome, estagio: 'proposta' });

    const list = await body<{ items: Opportunity[] }>(await rep('GET', '/funil'));
    expect(list.items.map((o) => o.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    const proposals = await body<{ items: Opportunity[] }>(await rep('GET', '/funil?estagio=proposta'));
    expect(proposals.items.every((o) => o.estagio === 'proposta')).toBe(true);
    expect(proposals.items.map((o) => o.id)).toContain(b.id);

    for (const estagio of ['proposta', 'negociacao', 'ganho'] as const) {
      const res = await rep('PATCH', `/funil/${a.id}`, { estagio });
      expect(res.status).toBe(200);
      const got = await body<Opportunity>(res);
      expect(got.estagio).toBe(estagio);
      expect(got.valor).toBe(1500.5);
    }
    const cleared = await body<Opportunity>(await rep('PATCH', `/funil/${a.id}`, { valor: null }));
    expect(cleared.valor).toBeNull();

    expect((await rep('DELETE', `/funil/${a.id}`)).status).toBe(204);
    expect((await rep('DELETE', `/funil/${a.id}`)).status).toBe(404);
    expect((await rep('PATCH', `/funil/${a.id}`, { estagio: 'lead' })).status).toBe(404);
  });

  it('requires the lost reason for perdido, on create and on a stage change', async () => {
    const res = await rep('POST', '/funil', { id: randomUUID(), nomeProspect: 'X', estagio: 'perdido' });
    expect(res.status).toBe(400);
    const a = await create();
    const noReason = await rep('PATCH', `/funil/${a.id}`, { estagio: 'perdido' });
    expect(noReason.status).toBe(422);
    expect((await body<Problem>(noReason)).code).toBe('LOSS_REASON_REQUIRED');
    const lost = await rep('PATCH', `/funil/${a.id}`, { estagio: 'perdido', motivoPerda: 'Preço do concorrente' });
    expect(await body<Opportunity>(lost)).toMatchObject({ estagio: 'perdido', motivoPerda: 'Preço do concorrente' });
    expect((await rep('PATCH', `/funil/${a.id}`, { motivoPerda: null })).status).toBe(422);
  });

  it('refuses a client outside the portfolio and another rep’s order', async () => {
    const res = await rep('POST', '/funil', { id: randomUUID(), idCliente: otherClient });
    expect(res.status).toBe(422);
    expect((await body<Problem>(res)).code).toBe('CLIENT_NOT_IN_PORTFOLIO');
    const a = await create();
    const patch = await rep('PATCH', `/funil/${a.id}`, { idCliente: otherClient });
    expect(patch.status).toBe(422);
    const order = await rep('PATCH', `/funil/${a.id}`, { idPedido: otherRepOrder });
    expect((await body<Problem>(order)).code).toBe('ORDER_NOT_FOUND');
    expect((await rep('POST', '/funil', { id: randomUUID() })).status).toBe(400);
  });

  it('hides another rep’s opportunity (404) and refuses other roles (403)', async () => {
    const a = await create();
    expect((await rep2('PATCH', `/funil/${a.id}`, { estagio: 'ganho' })).status).toBe(404);
    expect((await rep2('DELETE', `/funil/${a.id}`)).status).toBe(404);
    expect((await foreignRep('DELETE', `/funil/${a.id}`)).status).toBe(404);
    const theirs = await body<{ items: Opportunity[] }>(await rep2('GET', '/funil'));
    expect(theirs.items.map((o) => o.id)).not.toContain(a.id);
    // The id is taken by someone the caller cannot see: 409, never an overwrite.
    const steal = await rep2('POST', '/funil', { id: a.id, nomeProspect: 'Padaria Nova' });
    expect(steal.status).toBe(409);
    expect((await manager('GET', '/funil')).status).toBe(403);
    expect((await manager('POST', '/funil', { id: randomUUID(), nomeProspect: 'x' })).status).toBe(403);
    const row = await db.pool.query('select cod_vendedor from app.oportunidades where id = $1', [a.id]);
    expect(row.rows).toHaveLength(1);
    expect((await body<Opportunity>(await rep('PATCH', `/funil/${a.id}`, {}))).estagio).toBe('lead');
  });

  it('is idempotent by UUID: the same card again answers it, another content is a conflict', async () => {
    const id = randomUUID();
    const card = { id, nomeProspect: 'Açougue do Zé', valor: 10, observacoes: 'ligar segunda' };
    const first = await rep('POST', '/funil', card);
    expect(first.status).toBe(201);
    const again = await rep('POST', '/funil', card);
    expect(again.status).toBe(200);
    expect(await body<Opportunity>(again)).toEqual(await body<Opportunity>(first));
    const other = await rep('POST', '/funil', { ...card, valor: 11 });
    expect(other.status).toBe(409);
    expect((await body<Problem>(other)).code).toBe('OPPORTUNITY_ID_TAKEN');
    const count = await db.pool.query('select count(*)::int as n from app.oportunidades where id = $1', [id]);
    expect(count.rows[0].n).toBe(1);
  });

  it('refuses a PATCH based on a stale version, and accepts one based on the current', async () => {
    const a = await create();
    const v1 = await body<Opportunity>(
      await rep('PATCH', `/funil/${a.id}`, { estagio: 'proposta', baseAtualizadoEm: a.atualizadoEm }),
    );
    expect(v1.estagio).toBe('proposta');
    expect(new Date(v1.atualizadoEm).getTime()).toBeGreaterThanOrEqual(new Date(a.atualizadoEm).getTime());
    // Force the versions apart, as a second device's edit a moment later would.
    await db.pool.query(
      "update app.oportunidades set atualizado_em = atualizado_em + interval '1 second' where id = $1",
      [a.id],
    );
    const stale = await rep('PATCH', `/funil/${a.id}`, { estagio: 'ganho', baseAtualizadoEm: v1.atualizadoEm });
    expect(stale.status).toBe(409);
    const problem = await body<Problem & { atual: Opportunity }>(stale);
    expect(problem.code).toBe('OPPORTUNITY_CONFLICT');
    expect(problem.atual.estagio).toBe('proposta');
    const current = problem.atual.atualizadoEm;
    expect(new Date(current).getTime()).toBe(new Date(v1.atualizadoEm).getTime() + 1000);
    const ok = await rep('PATCH', `/funil/${a.id}`, { estagio: 'ganho', baseAtualizadoEm: current });
    expect(ok.status).toBe(200);
    // Without a base, the last writer wins.
    expect((await rep('PATCH', `/funil/${a.id}`, { estagio: 'negociacao' })).status).toBe(200);
  });

  it('keeps emoji and dashes in prospect names and notes exactly as typed', async () => {
    const nome = 'Empório — Zé 🍕';
    const notas = 'Gosta de 😀 e “promoções” ¤ — 👨‍👩‍👧';
    const a = await create({ nomeProspect: nome, empresaProspect: 'Ω Ltda', observacoes: notas });
    expect(a).toMatchObject({ nomeProspect: nome, empresaProspect: 'Ω Ltda', observacoes: notas });
    const listed = await body<{ items: Opportunity[] }>(await rep('GET', '/funil'));
    expect(listed.items.find((o) => o.id === a.id)).toMatchObject({ nomeProspect: nome, observacoes: notas });
    const lost = await body<Opportunity>(
      await rep('PATCH', `/funil/${a.id}`, { estagio: 'perdido', motivoPerda: 'Fechou — 😢' }),
    );
    expect(lost.motivoPerda).toBe('Fechou — 😢');
  });
});
