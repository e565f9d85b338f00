// The route matrix: every route of the OpenAPI document, called by every role and by a user of
// another tenant, with the status each must get. Each domain keeps its cases beside its code
// (server/src/<domain>/matrix.ts) and lists them in test/matrix/cases.ts; the matrix test fails
// when a documented route has no case, so a new route cannot skip its access rules.

export type MatrixCaller = 'anonymous' | 'representative' | 'supervisor' | 'manager' | 'admin' | 'otherTenant';

export interface MatrixContext {
  /** Tenant the callers (but otherTenant) belong to. */
  idEmpresa: number;
  /** The representative caller, and a client of their portfolio. */
  codVendedor: number;
  idCliente: number;
  /** A client of another representative of the same tenant. */
  idClienteOutroVendedor: number;
  idProduto: number;
  idPauta: number;
  /** The supervisor caller supervises the representative caller. */
  codSupervisor: number;
  /** An order the ERP took itself (telesales, counter; not a Campo order's copy) of a client of the representative caller. */
  erpOrder: { idCliente: number; erpId: number };
  /** A product with a price on the pauta of idCliente (orderable). */
  idProdutoPedido: number;
  /** Creates a pending order of the representative caller through the API; its id. */
  newPendingOrder: () => Promise<number>;
  /** Creates a discount rule of the tenant (as its owner, outside the API); its id. */
  newRule: () => Promise<number>;
  /** Opens a ticket (aberto) of the representative caller through the API; its id. */
  newTicket: () => Promise<number>;
  /** Creates a funnel opportunity of the representative caller through the API; its id. */
  newOpportunity: () => Promise<string>;
  /** Creates a manager login of the tenant (as ops would, outside the API); its id. */
  newUser: () => Promise<number>;
  /** The representative caller's visits at idCliente (docs/visits.md), through the API. */
  visits: {
    /** An open visit (the one open already, or a new check-in with a position); its id. */
    open: () => Promise<string>;
    /** A visit checked in with a position and out with a reason, with a photo; its id. */
    closed: () => Promise<string>;
    /** Closes the open visit, if any, so that a check-in may open one. */
    none: () => Promise<void>;
    /** A reason of the tenant's list; its id. */
    reason: () => Promise<number>;
    /** idCliente, without the ERP's visit days (so Campo's plan may be set). */
    planClient: () => Promise<number>;
  };
}

export interface MatrixRequest {
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is (uploads); give its content-type in headers. */
  rawBody?: Uint8Array;
  headers?: Record<string, string>;
}

export interface MatrixCase {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As in the OpenAPI document, e.g. /clients/{id}. */
  route: string;
  /** The concrete request; called once per caller, so a POST may create what it needs. */
  request: (ctx: MatrixContext, caller: MatrixCaller) => MatrixRequest | Promise<MatrixRequest>;
  expect: Record<MatrixCaller, number>;
  /** Cache-Control of a 200 the device may keep (a product's photo); every other answer is no-store. */
  cacheOnSuccess?: string;
}

/** Shorthand: the same status for every signed-in caller of the tenant, 401 anonymous. */
export function everyone(status: number, otherTenant = status): Record<MatrixCaller, number> {
  return { anonymous: 401, representative: status, supervisor: status, manager: status, admin: status, otherTenant };
}
