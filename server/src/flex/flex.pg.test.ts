import type { FlexAdjustmentResult, FlexBalancePage, FlexEntryPage } from '@campo/shared';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/support/app.ts';
import { type Api, anOrder, type Rep, signedIn } from '../../../test/support/builders.ts';
import { type ErpPeople, provisionedErp } from '../../../test/support/erp.ts';
import { waitingOnLocks } from '../../../test/support/locks.ts';
import { asServerRole, useTestDatabase } from '../../../test/support/pg.ts';
import { createDb, type Db } from '../db/kysely.ts';
import { withScope } from '../db/scope.ts';
import { creditFlex, releaseFlex, reserveFlex } from './service.ts';

const db = useTestDatabase();

describe('flex balances and their ledger', () => {
  let erp: ErpPeople;
  let a: Rep; // the representative the tests move
  let mate: Rep; // another of a's team
  let outsider: Rep; // a representative of another team of the tenant
  let foreign: Rep; // a representative of another tenant whose code the first tenant lacks
  let manager: Api;
  let supervisor: Api;
  let repA: Api;
  let admin: Api;
  let otherManager: Api;
  // Twenty connections of the server's role, each its own transaction, for the concurrency case.
  let serverPool: pg.Pool;
  let kdb: Db;

  beforeAll(async () => {
    erp = await provisionedErp(db.pool);
    const [t1, t2] = erp.tenants as [number, number];
    const inT1 = erp.reps.filter((r) => r.idEmpresa === t1);
    a = inT1[0] as Rep;
    mate = inT1.find((r) => r.codSupervisor === a.codSupervisor && r.codVendedor !== a.codVendedor) as Rep;
    outsider = inT1.find((r) => r.codSupervisor !== a.codSupervisor) as Rep;
    // Codes repeat across the fixture's tenants: the other tenant gets one of its own.
    const model = erp.reps.find((r) => r.idEmpresa === t2) as Rep;
    foreign = { ...model, codVendedor: 990_001 };
    await db.pool.query(
      `insert into vendedores
       select (jsonb_populate_record(null::vendedores, to_jsonb(v) || jsonb_build_object('cod_vendedor', $2::int))).*
         from vendedores v join empresas e on e.id_empresa = v.id_empresa
        where v.cod_vendedor = $1 and coalesce(e.id_matriz, e.id_empresa) = $3 limit 1`,
      [model.codVendedor, foreign.codVendedor, t2],
    );
    expect([mate, outsider].every(Boolean)).toBe(true);
    const app = testApp(db.pool);
    manager = await signedIn(app, db.pool, { login: 'ger@flex.test', role: 'manager', idEmpresa: t1 });
    admin = await signedIn(app, db.pool, { login: 'adm@flex.test', role: 'admin', idEmpresa: t1 });
    otherManager = await signedIn(app, db.pool, { login: 'ger2@flex.test', role: 'manager', idEmpresa: t2 });
    supervisor = await signedIn(app, db.pool, {
      login: 'sup@flex.test',
      role: 'supervisor',
      idEmpresa: t1,
      codSupervisor: a.codSupervisor,
    });
    repA = await signedIn(app, db.pool, {
      login: 'rep@flex.test',
      role: 'representative',
      idEmpresa: t1,
      codVendedor: a.codVendedor,
    });
    serverPool = new pg.Pool({ connectionString: asServerRole(db.url), max: 20 });
    serverPool.on('error', () => undefined);
    kdb = createDb(serverPool);
  });

  afterAll(async () => {
    await serverPool?.end();
  });

  afterEach(async () => {
    // The balance is the ledger's sum, for every representative, whatever the test did.
    const { rows } = await db.pool.query(
      `select id_empresa, cod_vendedor, coalesce(s.saldo, 0) as saldo, coalesce(l.soma, 0) as soma
         from app.flex_saldos s
         full join (select id_empresa, cod_vendedor, sum(valor) as soma
                      from app.flex_lancamentos group by 1, 2) l using (id_empresa, cod_vendedor)
        where coalesce(s.saldo, 0) <> coalesce(l.soma, 0) or s.saldo < 0`,
    );
    expect(rows).toEqual([]);
  });

  /** Empties every balance and ledger: each test starts from nothing. */
  async function clean() {
    await db.pool.query('delete from app.flex_lancamentos; delete from app.flex_saldos');
  }

  async function balanceOf(rep: Rep): Promise<number> {
    const { rows } = await db.pool.query<{ saldo: string }>(
      'select saldo from app.flex_saldos where id_empresa = $1 and cod_vendedor = $2',
      [rep.idEmpresa, rep.codVendedor],
    );
    return Number(rows[0]?.saldo ?? 0);
  }

  async function ledgerCount(): Promise<number> {
    const { rows } = await db.pool.query<{ n: number }>('select count(*)::int as n from app.flex_lancamentos');
    return rows[0]?.n as number;
  }

  const adjust = (as: Api, rep: Rep, body: unknown) =>
    as('POST', `/flex/balances/${rep.codVendedor}/adjustments`, body);

  /** An order of `rep` (as its device would have created it) and its scope's transaction. */
  const inOrderTx = <T>(rep: Rep, fn: Parameters<typeof withScope<T>>[2]) =>
    withScope(kdb, { idEmpresa: rep.idEmpresa, codVendedor: rep.codVendedor }, fn);
  const move = (rep: Rep, idPedido: number) => ({
    idEmpresa: rep.idEmpresa,
    codVendedor: rep.codVendedor,
    idPedido,
    by: 'rep@flex.test',
  });

  describe('a manager adjusts a balance', () => {
    it('credits and debits with a reason, answering the balance and the entry', async () => {
      await clean();
      const credit = await adjust(manager, a, { valor: 100, motivo: 'Campanha de março 🚚' });
      expect(credit.status).toBe(201);
      const made = (await credit.json()) as FlexAdjustmentResult;
      expect(made.saldo).toBe(100);
      expect(made.lancamento).toMatchObject({
        codVendedor: a.codVendedor,
        tipo: 'ajuste',
        valor: 100,
        idPedido: null,
        motivo: 'Campanha de março 🚚',
        criadoPor: 'ger@flex.test',
      });
      const debit = await adjust(manager, a, { valor: -30.25, motivo: 'Correção' });
      expect(debit.status).toBe(201);
      expect(((await debit.json()) as FlexAdjustmentResult).saldo).toBe(69.75);
      expect(await balanceOf(a)).toBe(69.75);
    });

    it('refuses a debit beyond the balance, naming the balance now, and changes nothing', async () => {
      await clean();
      await adjust(manager, a, { valor: 40, motivo: 'Saldo inicial' });
      const before = await ledgerCount();
      const res = await adjust(manager, a, { valor: -40.01, motivo: 'Débito grande' });
      expect(res.status).toBe(409);
      const problem = (await res.json()) as { code: string; saldo: number; detail: string };
      expect(problem).toMatchObject({ code: 'FLEX_BALANCE_INSUFFICIENT', saldo: 40 });
      expect(problem.detail).toContain('40,00');
      expect(await balanceOf(a)).toBe(40);
      expect(await ledgerCount()).toBe(before);
      // A representative without a balance has 0, and any debit is refused.
      const none = await adjust(manager, mate, { valor: -1, motivo: 'Sem saldo' });
      expect(none.status).toBe(409);
      expect(((await none.json()) as { saldo: number }).saldo).toBe(0);
    });

    it('refuses bad input with the field, and changes nothing', async () => {
      await clean();
      const bad: [unknown, string][] = [
        [{ valor: 10 }, 'body.motivo'],
        [{ valor: 10, motivo: '   ' }, 'body.motivo'],
        [{ valor: 10, motivo: 'x'.repeat(501) }, 'body.motivo'],
        [{ valor: 0, motivo: 'Zero' }, 'body.valor'],
        [{ valor: 1.005, motivo: 'Três casas' }, 'body.valor'],
        [{ valor: '10', motivo: 'Texto' }, 'body.valor'],
        [{ valor: 10, motivo: 'Extra', quem: 'eu' }, 'body'],
      ];
      for (const [body, path] of bad) {
        const res = await adjust(manager, a, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        const problem = (await res.json()) as { code: string; errors: { path: string }[] };
        expect(problem.code).toBe('VALIDATION_FAILED');
        expect(problem.errors.map((e) => e.path)).toContain(path);
      }
      expect(await ledgerCount()).toBe(0);
      // Each credit within bounds, but together past what the balance holds.
      expect((await adjust(manager, a, { valor: 999_999_999_999.99, motivo: 'Máximo' })).status).toBe(201);
      const past = await adjust(manager, a, { valor: 0.01, motivo: 'Um centavo a mais' });
      expect(past.status).toBe(400);
      expect(((await past.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(['body.valor']);
      expect(await ledgerCount()).toBe(1);
    });

    it('answers 404 for a representative unknown or of another tenant, and 403 to the other roles', async () => {
      await clean();
      const body = { valor: 10, motivo: 'Teste' };
      expect((await manager('POST', '/flex/balances/999999/adjustments', body)).status).toBe(404);
      expect((await adjust(manager, foreign, body)).status).toBe(404);
      for (const as of [supervisor, repA, admin]) expect((await adjust(as, a, body)).status).toBe(403);
      expect(await ledgerCount()).toBe(0);
    });
  });

  describe('the balances each role sees', () => {
    it('a manager: every active representative of the tenant, 0 without moves, paginated', async () => {
      await clean();
      await adjust(manager, a, { valor: 12.5, motivo: 'Bônus' });
      const { rows } = await db.pool.query<{ n: number }>(
        'select count(*)::int as n from app.vw_vendedores where id_empresa = $1 and ativo',
        [a.idEmpresa],
      );
      const res = await manager('GET', '/flex/balances?pageSize=100');
      expect(res.status).toBe(200);
      const page = (await res.json()) as FlexBalancePage;
      expect(page.total).toBe(rows[0]?.n);
      const mine = page.items.find((i) => i.codVendedor === a.codVendedor);
      expect(mine).toMatchObject({ saldo: 12.5, codSupervisor: a.codSupervisor });
      expect(mine?.nome).not.toBe('');
      expect(mine?.ultimoMovimentoEm).not.toBeNull();
      const others = page.items.filter((i) => i.codVendedor !== a.codVendedor);
      expect(others.every((i) => i.saldo === 0 && i.ultimoMovimentoEm === null)).toBe(true);
      const second = (await (await manager('GET', '/flex/balances?pageSize=2&page=2')).json()) as FlexBalancePage;
      expect(second.items.map((i) => i.codVendedor)).toEqual(page.items.slice(2, 4).map((i) => i.codVendedor));
      expect(second.total).toBe(page.total);
    });

    it('a supervisor: their team; a representative: their own; an admin: 403', async () => {
      const team = (await (await supervisor('GET', '/flex/balances?pageSize=100')).json()) as FlexBalancePage;
      expect(team.items.length).toBeGreaterThan(1);
      expect(team.items.every((i) => i.codSupervisor === a.codSupervisor)).toBe(true);
      expect(team.items.map((i) => i.codVendedor)).toContain(mate.codVendedor);
      const own = (await (await repA('GET', '/flex/balances')).json()) as FlexBalancePage;
      expect(own.items.map((i) => i.codVendedor)).toEqual([a.codVendedor]);
      expect((await admin('GET', '/flex/balances')).status).toBe(403);
      expect((await manager('GET', '/flex/balances?pageSize=101')).status).toBe(400);
    });
  });

  describe('the ledger', () => {
    it('lists the moves newest first with the order number and who made each', async () => {
      await clean();
      await adjust(manager, a, { valor: 50, motivo: 'Saldo inicial' });
      const order = await anOrder(db.pool, a);
      await inOrderTx(a, (tx) => reserveFlex(tx, { ...move(a, order.id), amount: 20 }));
      const res = await supervisor('GET', `/flex/balances/${a.codVendedor}/entries`);
      expect(res.status).toBe(200);
      const page = (await res.json()) as FlexEntryPage;
      expect(page).toMatchObject({ codVendedor: a.codVendedor, saldo: 30, total: 2 });
      expect(page.items.map((e) => [e.tipo, e.valor, e.numPedSar, e.criadoPor])).toEqual([
        ['reserva', -20, order.numPedSar, 'rep@flex.test'],
        ['ajuste', 50, null, 'ger@flex.test'],
      ]);
      const own = (await (
        await repA('GET', `/flex/balances/${a.codVendedor}/entries?pageSize=1`)
      ).json()) as FlexEntryPage;
      expect(own.items.map((e) => e.tipo)).toEqual(['reserva']);
      expect(own.total).toBe(2);
    });

    it('answers 404 for a representative out of reach or of another tenant', async () => {
      expect((await repA('GET', `/flex/balances/${mate.codVendedor}/entries`)).status).toBe(404);
      expect((await supervisor('GET', `/flex/balances/${outsider.codVendedor}/entries`)).status).toBe(404);
      expect((await manager('GET', `/flex/balances/${foreign.codVendedor}/entries`)).status).toBe(404);
      expect((await admin('GET', `/flex/balances/${a.codVendedor}/entries`)).status).toBe(403);
      // Codes repeat across tenants: another tenant's manager never reads this tenant's moves.
      const res = await otherManager('GET', `/flex/balances/${a.codVendedor}/entries`);
      if (res.status === 200) expect(((await res.json()) as FlexEntryPage).total).toBe(0);
      else expect(res.status).toBe(404);
    });

    it("row-level security keeps a representative's scope to their own ledger", async () => {
      await clean();
      await adjust(manager, a, { valor: 5, motivo: 'Do A' });
      await adjust(manager, mate, { valor: 7, motivo: 'Do colega' });
      const seen = await inOrderTx(a, async (tx) => ({
        entries: await tx.selectFrom('app.flex_lancamentos').select('cod_vendedor').execute(),
        balances: await tx.selectFrom('app.flex_saldos').select('cod_vendedor').execute(),
      }));
      expect(seen.entries.map((r) => r.cod_vendedor)).toEqual([a.codVendedor]);
      expect(seen.balances.map((r) => r.cod_vendedor)).toEqual([a.codVendedor]);
      // Nor may it write another's.
      await expect(
        inOrderTx(a, (tx) =>
          tx
            .insertInto('app.flex_saldos')
            .values({ ...keyOf(mate), saldo: 1000 })
            .execute(),
        ),
      ).rejects.toThrow(/row-level security/);
    });
  });

  const keyOf = (rep: Rep) => ({ id_empresa: rep.idEmpresa, cod_vendedor: rep.codVendedor });

  describe("an order's moves", () => {
    it('reserves only what the balance covers; a refused reservation moves nothing', async () => {
      await clean();
      await adjust(manager, a, { valor: 10, motivo: 'Saldo' });
      const [o1, o2] = [await anOrder(db.pool, a), await anOrder(db.pool, a)];
      const refused = await inOrderTx(a, (tx) => reserveFlex(tx, { ...move(a, o1.id), amount: 10.01 }));
      expect(refused).toEqual({ passed: false, saldo: 10, valor: 0, repeated: false });
      const passed = await inOrderTx(a, (tx) => reserveFlex(tx, { ...move(a, o2.id), amount: 10 }));
      expect(passed).toEqual({ passed: true, saldo: 0, valor: -10, repeated: false });
      const again = await inOrderTx(a, (tx) => reserveFlex(tx, { ...move(a, o2.id), amount: 10 }));
      expect(again).toEqual({ passed: true, saldo: 0, valor: 0, repeated: true });
      // Nothing to spend: no entry.
      const free = await inOrderTx(a, (tx) => reserveFlex(tx, { ...move(a, o1.id), amount: 0 }));
      expect(free.passed).toBe(true);
      expect(await ledgerCount()).toBe(2);
    });

    it('a release gives back what the order reserved, once', async () => {
      await clean();
      await adjust(manager, a, { valor: 30, motivo: 'Saldo' });
      const order = await anOrder(db.pool, a);
      const untouched = await anOrder(db.pool, a);
      await inOrderTx(a, (tx) => reserveFlex(tx, { ...move(a, order.id), amount: 12.34 }));
      // The decision is a supervisor's: not the representative's scope.
      const decide = <T>(fn: Parameters<typeof withScope<T>>[2]) =>
        withScope(kdb, { idEmpresa: a.idEmpresa, codVendedor: null }, fn);
      expect(await decide((tx) => releaseFlex(tx, move(a, order.id)))).toEqual({
        passed: true,
        saldo: 30,
        valor: 12.34,
        repeated: false,
      });
      expect(await decide((tx) => releaseFlex(tx, move(a, order.id)))).toMatchObject({ saldo: 30, repeated: true });
      // An order that reserved nothing gives nothing back.
      expect(await decide((tx) => releaseFlex(tx, move(a, untouched.id)))).toMatchObject({ saldo: 30, valor: 0 });
      expect(await balanceOf(a)).toBe(30);
    });

    it('an approval credits what the order earned, once, even to a representative without a balance', async () => {
      await clean();
      const order = await anOrder(db.pool, mate);
      const credit = (amount: number) =>
        withScope(kdb, { idEmpresa: mate.idEmpresa, codVendedor: null }, (tx) =>
          creditFlex(tx, { ...move(mate, order.id), amount }),
        );
      expect(await credit(7.5)).toEqual({ passed: true, saldo: 7.5, valor: 7.5, repeated: false });
      expect(await credit(7.5)).toEqual({ passed: true, saldo: 7.5, valor: 0, repeated: true });
      expect(await balanceOf(mate)).toBe(7.5);
    });

    it('20 reservations at once spend the balance in arrival order, never below zero', async () => {
      await clean();
      await adjust(manager, a, { valor: 100, motivo: 'Saldo para o teste de concorrência' });
      const amounts = [30, 50, 40, 10, 20, 5, 15, 3, 2, 8, 1, 4, 6, 7, 9, 11, 0.5, 12, 13, 14];
      const orders = [];
      for (const _ of amounts) orders.push(await anOrder(db.pool, a));
      // A transaction of the test holds the balance's queue (queries.ts, lockBalance), so the
      // twenty line up behind it in the order they arrive; each is sent only once the one before
      // it waits.
      const holder = await db.pool.connect();
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `campo.flex:${a.idEmpresa}:${a.codVendedor}`,
      ]);
      const results: Promise<{ passed: boolean }>[] = [];
      try {
        for (const [i, amount] of amounts.entries()) {
          const order = orders[i] as { id: number };
          const result = inOrderTx(a, (tx) => reserveFlex(tx, { ...move(a, order.id), amount }));
          results.push(result);
          await waitingOnLocks(db.pool, i + 1, result);
        }
      } finally {
        await holder.query('commit');
        holder.release();
      }
      const passed = (await Promise.all(results)).map((r) => r.passed);
      let left = 100;
      const fits = amounts.map((amount) => {
        if (amount > left + 1e-9) return false;
        left = Math.round((left - amount) * 100) / 100;
        return true;
      });
      expect(passed).toEqual(fits);
      expect(await balanceOf(a)).toBe(left);
      expect(left).toBeGreaterThanOrEqual(0);
    });

    it('20 reservations sent truly at once: exactly as many as fit pass', async () => {
      await clean();
      await adjust(manager, a, { valor: 100, motivo: 'Saldo' });
      const orders = [];
      for (let i = 0; i < 20; i++) orders.push(await anOrder(db.pool, a));
      const results = await Promise.all(
        orders.map((o) => inOrderTx(a, (tx) => reserveFlex(tx, { ...move(a, o.id), amount: 15 }))),
      );
      expect(results.filter((r) => r.passed)).toHaveLength(6);
      expect(await balanceOf(a)).toBe(10);
    });
  });
});
