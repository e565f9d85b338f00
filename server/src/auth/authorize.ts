// Authorization: the one place that answers "may this caller do this to this object". Three
// questions, always in this order (docs/security.md, "Roles"):
//
// 1. The role: may this role do this action at all? The table ACTIONS names every action a
//    route or a service checks, with the roles that may do it and the refusal the caller reads
//    (403). Route gates (`permit`) run before the body is read or anything is queried, so a
//    403 reveals nothing about the object; service checks (`authorize`) run before the
//    service opens its transaction. Authorizing a representative-only action answers the
//    caller typed with their cod_vendedor (RepresentativeAuth), so no caller casts it.
// 2. The tenant: every object is looked up by the token's id_empresa (withScope and each
//    query's own filter), so another tenant's object is simply absent (404).
// 3. The reach: which representatives' objects the caller may see (`reachOf`): a
//    representative their own (cod_vendedor), a supervisor their team (the representatives
//    whose ERP supervisor they are), managers and admins the whole tenant. Lists ask it here
//    as a filter (`teamScope`, `visibleReps`), never by switching on the role themselves. An
//    object out of reach answers 404 like an absent one; a representative's document that another
//    representative tries to write is a 403 (`assertOwner`), since its id is the device's and
//    the push cannot be answered as if it did not exist.
//
// Nothing here reads the database: the services look objects up and ask these functions. It
// also gives a request's row-level security scope (`scopeOf`), which db/ takes as plain data.
import type { Role } from '@campo/shared';
import type { MiddlewareHandler } from 'hono';
import type { Scope } from '../db/scope.ts';
import { forbidden } from '../errors.ts';
import type { AppEnv, AuthContext } from '../http/env.ts';

interface ActionRule {
  readonly roles: readonly Role[];
  /** What the caller reads in the 403; the default says the profile may not do it. */
  readonly refusal?: string;
}

const ACTIONS = {
  // Route gates -----------------------------------------------------------------------------
  'users.manage': { roles: ['admin'] },
  // The spec: "Managing discount rules is manager only". Admins manage users, not commercial
  // policy (they still read the rules in force and preview ceilings).
  'policies.manage': { roles: ['manager'] },
  'targets.read': { roles: ['manager', 'admin', 'supervisor'] },
  'targets.write': { roles: ['manager', 'admin'] },
  'dashboards.team': { roles: ['supervisor', 'manager', 'admin'] },
  'dashboards.company': { roles: ['manager', 'admin'] },
  'company.manage': { roles: ['manager', 'admin'] },
  // Credit policy and flex are commercial policy, like the discount rules: managers only.
  'company.moneyRules': { roles: ['manager'], refusal: 'Só gerentes definem a política de crédito e o flex.' },
  'clients.creditLimit': { roles: ['manager', 'admin'] },
  /** The selectors of representatives and pautas on the team and company screens. */
  'directory.team': { roles: ['supervisor', 'manager', 'admin'] },
  'directory.supervisors': { roles: ['manager', 'admin'] },
  // The flex balances are the sales side's money: each reads what its reach covers, and only a
  // manager moves a balance by hand; admins manage users, not commercial money.
  'flex.read': { roles: ['representative', 'supervisor', 'manager'] },
  'flex.adjust': { roles: ['manager'], refusal: 'Só gerentes ajustam o saldo flex.' },
  // Service checks --------------------------------------------------------------------------
  'orders.create': { roles: ['representative'], refusal: 'Só representantes criam pedidos.' },
  'orders.decide': { roles: ['supervisor', 'manager', 'admin'], refusal: 'Representantes não aprovam pedidos.' },
  'funnel.use': { roles: ['representative'], refusal: 'Só representantes têm funil de vendas.' },
  'clients.register': { roles: ['representative'], refusal: 'Só representantes cadastram clientes.' },
  // The representative side and the company side of the tickets are disjoint.
  'tickets.representative': {
    roles: ['representative'],
    refusal: 'Só representantes usam os chamados do representante; a empresa usa /ger/chamados.',
  },
  'tickets.company': { roles: ['manager', 'admin'], refusal: 'Só gerentes e administradores atendem chamados.' },
  // Visits (docs/visits.md): a representative checks in and out of their own; supervisors and
  // managers read their reach's day and plan the route where the ERP keeps none; the reasons
  // list is the manager's.
  'visits.representative': { roles: ['representative'], refusal: 'Só representantes registram visitas.' },
  'visits.team': { roles: ['supervisor', 'manager', 'admin'] },
  'visits.plan': {
    roles: ['supervisor', 'manager'],
    refusal: 'Só supervisores e gerentes planejam o roteiro e confirmam a posição de clientes.',
  },
  'visits.reasons': { roles: ['manager'], refusal: 'Só gerentes mantêm a lista de motivos de não venda.' },
  // The collections only a representative replicates; the refusal names the collection (sync/service.ts).
  'sync.representative': { roles: ['representative'] },
} as const satisfies Record<string, ActionRule>;

export type Action = keyof typeof ACTIONS;

/** The actions only a representative may do: authorizing one answers a RepresentativeAuth. */
export type RepresentativeAction = {
  [A in Action]: (typeof ACTIONS)[A]['roles'] extends readonly ['representative'] ? A : never;
}[Action];

/** A representative with their cod_vendedor: what a representative-only action acts as. */
export type RepresentativeAuth = AuthContext & { role: 'representative'; codVendedor: number };

/**
 * Whether the caller's role may do the action. A representative acts only with a
 * cod_vendedor: the users table requires one, so a token without it is a bug, refused.
 */
export function can(auth: AuthContext, action: Action): boolean {
  const rule: ActionRule = ACTIONS[action];
  return rule.roles.includes(auth.role) && (auth.role !== 'representative' || auth.codVendedor !== null);
}

/**
 * Throws the action's 403 unless the caller's role may do it, and answers the caller: for a
 * representative-only action, typed with the cod_vendedor `can` made sure of.
 */
export function authorize(auth: AuthContext, action: RepresentativeAction): RepresentativeAuth;
export function authorize(auth: AuthContext, action: Action): AuthContext;
export function authorize(auth: AuthContext, action: Action): AuthContext {
  if (!can(auth, action)) throw forbidden((ACTIONS[action] as ActionRule).refusal);
  return auth;
}

/** For the representative-only actions: authorizes and answers the representative's code. */
export function representativeFor(auth: AuthContext, action: RepresentativeAction): number {
  return authorize(auth, action).codVendedor;
}

/** Route gate: the role is checked before the body is read or anything is queried. */
export function permit(action: Action): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    authorize(c.get('auth'), action);
    await next();
  };
}

/** The representatives whose objects the caller may see. */
export type Reach =
  /** A representative: their own (cod_vendedor). */
  | { kind: 'own'; codVendedor: number | null }
  /** A supervisor: the representatives whose ERP supervisor they are. */
  | { kind: 'team'; codSupervisor: number | null }
  /** Managers and admins: every representative of the tenant. */
  | { kind: 'tenant' };

export function reachOf(auth: AuthContext): Reach {
  switch (auth.role) {
    case 'representative':
      return { kind: 'own', codVendedor: auth.codVendedor };
    case 'supervisor':
      return { kind: 'team', codSupervisor: auth.codSupervisor };
    case 'manager':
    case 'admin':
      return { kind: 'tenant' };
  }
}

/** Whether this representative (their code, their ERP supervisor) is within the caller's reach. */
export function reaches(auth: AuthContext, rep: { codVendedor: number | null; codSupervisor: number | null }): boolean {
  const reach = reachOf(auth);
  switch (reach.kind) {
    case 'own':
      return rep.codVendedor === reach.codVendedor;
    case 'team':
      return rep.codSupervisor === reach.codSupervisor;
    case 'tenant':
      return true;
  }
}

/**
 * Whose objects the caller sees, as the filter a list applies: a representative their own code,
 * a supervisor their team, managers and admins the whole tenant (neither code). What the caller
 * asks for narrows it within that: a representative asking for another, or a supervisor for
 * another team, is out of reach (null), as is a representative or supervisor token without its
 * code (the users table forbids one; belt and braces).
 */
export function teamScope(auth: AuthContext, asked: TeamFilter = {}): TeamFilter | null {
  const reach = reachOf(auth);
  switch (reach.kind) {
    case 'own':
      if (reach.codVendedor === null) return null;
      if (asked.codVendedor !== undefined && asked.codVendedor !== reach.codVendedor) return null;
      return { codVendedor: reach.codVendedor };
    case 'team':
      if (reach.codSupervisor === null) return null;
      if (asked.codSupervisor !== undefined && asked.codSupervisor !== reach.codSupervisor) return null;
      return { ...asked, codSupervisor: reach.codSupervisor };
    case 'tenant':
      return asked;
  }
}

/** A list's filter by representative: one, or one supervisor's team; neither for the whole tenant. */
export interface TeamFilter {
  codVendedor?: number | undefined;
  codSupervisor?: number | undefined;
}

/**
 * The representatives the caller sees, for a list filtered by representative code: null for
 * the whole tenant. Nothing here reads the database: `team` looks a supervisor's team up.
 */
export async function visibleReps(
  auth: AuthContext,
  team: (codSupervisor: number) => Promise<number[]>,
): Promise<number[] | null> {
  const scope = teamScope(auth);
  if (scope === null) return [];
  if (scope.codVendedor !== undefined) return [scope.codVendedor];
  if (scope.codSupervisor !== undefined) return team(scope.codSupervisor);
  return null;
}

/** The representative the caller acts as, or null when they see more than one representative. */
export function ownRepresentative(auth: AuthContext): number | null {
  const reach = reachOf(auth);
  return reach.kind === 'own' ? reach.codVendedor : null;
}

/** The tenant and representative a request's transaction sets for row-level security (withScope). */
export function scopeOf(auth: AuthContext): Scope {
  return { idEmpresa: auth.idEmpresa, codVendedor: ownRepresentative(auth) };
}

/**
 * The team a list is limited to: a supervisor's own, whatever they ask for; for managers and
 * admins the team they ask for, or null for the whole tenant.
 */
export function teamOf(auth: AuthContext, asked?: number): number | null {
  const reach = reachOf(auth);
  return reach.kind === 'team' ? reach.codSupervisor : (asked ?? null);
}

/** Whether the caller is the representative who owns an object (its cod_vendedor). */
export function owns(auth: AuthContext, codVendedor: number | null): auth is RepresentativeAuth {
  return auth.role === 'representative' && auth.codVendedor !== null && auth.codVendedor === codVendedor;
}

/**
 * A representative's document (by the device's id) that belongs to another representative:
 * 403, since the id exists and the device must not take it for its own. `what` names it in the
 * refusal ("Este chamado", "Este cadastro").
 */
export function assertOwner(
  auth: AuthContext,
  codVendedor: number | null,
  what = 'Este documento',
): asserts auth is RepresentativeAuth {
  if (!owns(auth, codVendedor)) throw notYours(what);
}

/** The refusal of assertOwner, for an owner the caller cannot even see (row-level security hides it). */
export const notYours = (what = 'Este documento') => forbidden(`${what} pertence a outro representante.`);

/**
 * The representative's own code where the answer depends on it (the rules that reach them).
 * Null for the other roles; a representative token without a code is a bug, refused.
 */
export function representativeCode(auth: AuthContext): number | null {
  if (auth.role !== 'representative') return null;
  if (auth.codVendedor === null) throw forbidden('Usuário representante sem código de vendedor.');
  return auth.codVendedor;
}

/**
 * Whose ceiling a preview may show. A representative gets their own, on the server's
 * business date: naming someone else or a date is refused (403), not ignored, so a client
 * that tries never believes it was shown another representative's ceiling or a future one.
 * Null for the other roles, who name a representative in their reach (`reaches`).
 */
export function ownCeilingOnly(auth: AuthContext, asked: { codVendedor?: number; data?: string }): number | null {
  const own = representativeCode(auth);
  if (own === null) return null;
  if (asked.codVendedor !== undefined && asked.codVendedor !== own) {
    throw forbidden('Um representante consulta apenas a própria alçada.');
  }
  if (asked.data !== undefined) {
    throw forbidden('A data da alçada de um representante é sempre a data do servidor.');
  }
  return own;
}
