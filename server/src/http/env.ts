import type { AuthContext } from '../auth/claims.ts';

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
