// The OpenAPI security lint's ruleset: the OWASP API Security Top 10 2023 ruleset for Spectral
// (@stoplight/spectral-owasp-ruleset, pinned in package.json), and the exceptions we accept,
// each with why. `pnpm lint:openapi` (test/openapi/lint.ts) fails on any error it reports in a
// request: an operation's parameters, its body, or the operation itself.
import owasp from '@stoplight/spectral-owasp-ruleset';

export const ruleset = { extends: [[owasp, 'all']] };

export interface Exception {
  rule: string;
  /** Matches the finding's path, joined with '.' (e.g. `paths./auth/login.post`). */
  where: RegExp;
  why: string;
}

export const EXCEPTIONS: Exception[] = [
  {
    rule: 'owasp:api1:2023-no-numeric-ids',
    where: /^paths\./,
    why: 'Objects are addressed by the ERP’s own integer keys (id_cliente, id_produto, pedidos, rules and users in the same sequence style); Campo cannot renumber the ERP. Guessing one gains nothing: every id is checked against the token’s tenant and scope (404 outside it, never 403), row-level security holds the tenant in the database, and the route matrix (test/route-matrix.pg.test.ts) calls every {id} route with another tenant’s token.',
  },
  {
    rule: 'owasp:api2:2023-write-restricted',
    where: /^paths\.\/auth\/(login|dev-login)\.post$/,
    why: 'These are the routes that issue the token, so they cannot require one. Login is limited per login and address, per address, and in concurrent hashing (docs/security.md); dev-login answers 404 unless DEV_LOGIN=1, which production refuses.',
  },
  {
    rule: 'owasp:api2:2023-write-restricted',
    where: /^paths\.\/client-errors\.post$/,
    why: 'The app reports the errors it could not handle, including those of a session that expired or of the login screen itself, so a token cannot be required. It only writes a log line: the body is at most 16 KiB and strictly validated, and reports are limited per user or per address (docs/deployment.md, "Logs").',
  },
];

/** Findings in a request: parameters, body, or the operation itself (e.g. a write without security). */
export function inRequest(path: readonly (string | number)[]): boolean {
  if (path[0] !== 'paths') return false;
  return path.length === 3 || path[3] === 'parameters' || path[3] === 'requestBody';
}
