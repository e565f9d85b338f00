// The authorization module's decisions on their own; the route × role matrix
// (test/route-matrix.pg.test.ts) checks the same rules through every route.
import type { Role } from '@campo/shared';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import {
  assertOwner,
  authorize,
  can,
  ownCeilingOnly,
  ownRepresentative,
  reaches,
  reachOf,
  representativeCode,
  representativeFor,
  teamOf,
  teamScope,
  visibleReps,
} from './authorize.ts';

function caller(role: Role, extra: Partial<AuthContext> = {}): AuthContext {
  return {
    userId: 1,
    login: `${role}@t.test`,
    name: role,
    role,
    idEmpresa: 1,
    codVendedor: role === 'representative' ? 12 : null,
    codSupervisor: role === 'supervisor' ? 3 : null,
    ...extra,
  };
}

const rep = caller('representative');
const sup = caller('supervisor');
const manager = caller('manager');
const admin = caller('admin');

function refusal(fn: () => unknown): { status: number; code: string; detail: string | undefined } | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { status: err.status, code: err.code, detail: err.detail };
  }
}

describe('authorize: the role', () => {
  it('lets each action through for its roles only', () => {
    expect([rep, sup, manager, admin].map((a) => can(a, 'orders.decide'))).toEqual([false, true, true, true]);
    expect([rep, sup, manager, admin].map((a) => can(a, 'policies.manage'))).toEqual([false, false, true, false]);
    expect([rep, sup, manager, admin].map((a) => can(a, 'company.moneyRules'))).toEqual([false, false, true, false]);
    expect([rep, sup, manager, admin].map((a) => can(a, 'tickets.company'))).toEqual([false, false, true, true]);
    expect([rep, sup, manager, admin].map((a) => can(a, 'funnel.use'))).toEqual([true, false, false, false]);
  });

  it('refuses with the action’s own message, or the default one', () => {
    expect(refusal(() => authorize(manager, 'orders.create'))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      detail: 'Só representantes criam pedidos.',
    });
    expect(refusal(() => authorize(manager, 'users.manage'))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      detail: 'Seu perfil não permite esta operação.',
    });
    expect(refusal(() => authorize(admin, 'users.manage'))).toBeNull();
  });

  it('never lets a representative without a cod_vendedor act as one', () => {
    const broken = caller('representative', { codVendedor: null });
    expect(can(broken, 'orders.create')).toBe(false);
    expect(refusal(() => representativeFor(broken, 'funnel.use'))?.detail).toBe(
      'Só representantes têm funil de vendas.',
    );
    expect(refusal(() => representativeCode(broken))?.detail).toBe('Usuário representante sem código de vendedor.');
    expect(representativeFor(rep, 'funnel.use')).toBe(12);
  });
});

describe('authorize: the reach', () => {
  it('is the representative’s own, the supervisor’s team or the tenant', () => {
    expect(reachOf(rep)).toEqual({ kind: 'own', codVendedor: 12 });
    expect(reachOf(sup)).toEqual({ kind: 'team', codSupervisor: 3 });
    expect(reachOf(manager)).toEqual({ kind: 'tenant' });
    expect(ownRepresentative(rep)).toBe(12);
    expect(ownRepresentative(sup)).toBeNull();
  });

  it('reaches a representative by code, by supervisor, or always', () => {
    const mine = { codVendedor: 12, codSupervisor: 3 };
    const other = { codVendedor: 13, codSupervisor: 4 };
    expect([reaches(rep, mine), reaches(rep, other)]).toEqual([true, false]);
    expect([reaches(sup, mine), reaches(sup, other)]).toEqual([true, false]);
    expect([reaches(admin, mine), reaches(admin, other)]).toEqual([true, true]);
  });

  it('holds a supervisor to their team whatever they ask', () => {
    expect(teamOf(sup, 4)).toBe(3);
    expect(teamOf(manager, 4)).toBe(4);
    expect(teamOf(manager)).toBeNull();
  });

  it('refuses another representative’s document with 403 naming it', () => {
    expect(refusal(() => assertOwner(rep, 12))).toBeNull();
    expect(refusal(() => assertOwner(rep, 13, 'Este chamado'))?.detail).toBe(
      'Este chamado pertence a outro representante.',
    );
    expect(refusal(() => assertOwner(manager, 12))?.status).toBe(403);
  });

  it('keeps a representative’s ceiling preview to their own, on the server’s date', () => {
    expect(ownCeilingOnly(rep, {})).toBe(12);
    expect(ownCeilingOnly(rep, { codVendedor: 12 })).toBe(12);
    expect(refusal(() => ownCeilingOnly(rep, { codVendedor: 13 }))?.detail).toBe(
      'Um representante consulta apenas a própria alçada.',
    );
    expect(refusal(() => ownCeilingOnly(rep, { data: '2030-01-01' }))?.status).toBe(403);
    expect(ownCeilingOnly(sup, { codVendedor: 13, data: '2030-01-01' })).toBeNull();
  });
});

describe('authorize: who sees whom, as a filter', () => {
  it('narrows a representative-only action to the representative and their code', () => {
    const acting = authorize(rep, 'orders.create');
    const code: number = acting.codVendedor;
    expect(code).toBe(12);
    expect(refusal(() => authorize(caller('representative', { codVendedor: null }), 'orders.create'))?.status).toBe(
      403,
    );
  });

  it('is the own code, the own team or the tenant, and null for what is out of reach', () => {
    expect(teamScope(rep)).toEqual({ codVendedor: 12 });
    expect(teamScope(rep, { codVendedor: 12 })).toEqual({ codVendedor: 12 });
    expect(teamScope(rep, { codVendedor: 13 })).toBeNull();
    expect(teamScope(sup)).toEqual({ codSupervisor: 3 });
    expect(teamScope(sup, { codVendedor: 13 })).toEqual({ codVendedor: 13, codSupervisor: 3 });
    expect(teamScope(sup, { codSupervisor: 4 })).toBeNull();
    expect(teamScope(manager)).toEqual({});
    expect(teamScope(manager, { codSupervisor: 4 })).toEqual({ codSupervisor: 4 });
    expect(teamScope(caller('supervisor', { codSupervisor: null }))).toBeNull();
  });

  it('lists the visible representatives, asking for a team only when it needs one', async () => {
    const team = async (codSupervisor: number) => (codSupervisor === 3 ? [12, 14] : []);
    expect(await visibleReps(rep, team)).toEqual([12]);
    expect(await visibleReps(sup, team)).toEqual([12, 14]);
    expect(await visibleReps(admin, team)).toBeNull();
    expect(await visibleReps(caller('representative', { codVendedor: null }), team)).toEqual([]);
  });
});
