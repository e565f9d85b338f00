import type { Role } from '@campo/shared';

/**
 * The caller, as the auth middleware established it from a valid token and a live user row.
 * Owned here, with the request's context, so that http/ needs nothing from auth/: auth fills
 * it in and the domains read it.
 */
export interface AuthContext {
  userId: number;
  login: string;
  name: string;
  role: Role;
  idEmpresa: number;
  codVendedor: number | null;
  codSupervisor: number | null;
}

/** What middleware puts in a request's context for the handlers. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** Set by the auth middleware on every route but the public ones. */
    auth: AuthContext;
    /**
     * Whether the caller's token is still good (user active, credentials not reset): checked
     * again by long-lived answers (GET /sync/stream), which outlive the check made on arrival.
     */
    sessionAlive: () => Promise<boolean>;
  };
}
