// The set-up every browser test file shares, in one place: a fresh database with the provisioned
// reference ERP, the file's logins (tied to the fixture's first representative and their
// supervisor), the real server with the built app, Chromium at 360 px, a screenshot of a failed
// test, and everything closed when the file ends. A file adds its own data in `setUp` (before the
// server starts) and binds what it needs in a beforeAll of its own, which runs after this one.
import type { ErpEncoding, Role } from '@campo/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createDb } from '../../server/src/db/kysely.ts';
import { addUser } from '../../server/src/users/service.ts';
import {
  type Browser,
  goOffline,
  launchBrowser,
  logIn,
  requireClientBuild,
  screenshotOnFailure,
  startWebServer,
  type WebServer,
} from './browser.ts';
import { type ErpPeople, provisionedErp } from './erp.ts';
import { useTestDatabase } from './pg.ts';

export type Representative = ErpPeople['reps'][number];

export interface SuiteUser {
  login: string;
  name: string;
  role: Role;
  /** Defaults to the suite's password. */
  password?: string;
  /** Defaults: the representative's code for a representative, null otherwise. */
  codVendedor?: number | null;
  /** Defaults: the representative's supervisor for a supervisor, null otherwise. */
  codSupervisor?: number | null;
}

export interface BrowserSuiteOptions {
  /** The ERP database's encoding; TEST_ENCODING (LATIN1 outside the encoding matrix) unless given. */
  encoding?: ErpEncoding;
  /** The password of every user that names none. */
  password?: string;
  users?: SuiteUser[];
  /** The file's own data, after provisioning and the users, before the server starts. */
  setUp?: (ctx: { db: TestDatabase; erp: ErpPeople; rep: Representative }) => Promise<void>;
  /** Passed to startWebServer (a stand-in in front of the app). */
  server?: Parameters<typeof startWebServer>[1];
  /** A user the first page logs in as once everything runs (the file's only person). */
  logIn?: string;
  /** Chromium instances, each with its own profile (two people on two phones); default 1. */
  browsers?: number;
  /** Which page a failed test's screenshot shows; default the last one pageOf gave, else the first. */
  screenshotOf?: () => Page | undefined;
}

type TestDatabase = ReturnType<typeof useTestDatabase>;

export interface BrowserSuite {
  readonly db: TestDatabase;
  readonly erp: ErpPeople;
  /** The fixture's first representative, whom the users are tied to. */
  readonly rep: Representative;
  readonly server: WebServer;
  readonly browsers: Browser[];
  /**
   * The page of browser `index` (one person's phone or desk), which from then on is the one a
   * failed test's screenshot shows.
   */
  pageOf(index: number): Page;
  /** The first browser's page, and its context (offline switch, cookies). */
  readonly page: Page;
  readonly context: BrowserContext;
  /** Cuts the first browser's network for real, undone at the end of the test (goOffline). */
  goOffline(): Promise<void>;
  /** Console errors of the first page for the whole file (a CSP violation shows only there). */
  readonly consoleErrors: string[];
  /** The console errors that are Content Security Policy violations: none is the expectation. */
  cspViolations(): string[];
  /** A bearer token for one of the users, from the running server's real POST /auth/login. */
  token(login: string, password?: string): Promise<string>;
}

export function useBrowserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  const db = useTestDatabase(options.encoding ? { encoding: options.encoding } : {});
  const state = {
    erp: undefined as ErpPeople | undefined,
    rep: undefined as Representative | undefined,
    server: undefined as WebServer | undefined,
    browsers: [] as Browser[],
    consoleErrors: [] as string[],
    current: undefined as Page | undefined,
  };
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the browser suite has no ${what} yet (used before its beforeAll)`);
    return value;
  };

  beforeAll(async () => {
    requireClientBuild();
    const erp = await provisionedErp(db.pool);
    const rep = erp.reps[0];
    if (!rep) throw new Error('the fixture has no representative');
    state.erp = erp;
    state.rep = rep;
    const kdb = createDb(db.pool);
    for (const u of options.users ?? []) {
      await addUser(kdb, {
        login: u.login,
        name: u.name,
        role: u.role,
        idEmpresa: rep.idEmpresa,
        codVendedor: u.codVendedor !== undefined ? u.codVendedor : u.role === 'representative' ? rep.codVendedor : null,
        codSupervisor:
          u.codSupervisor !== undefined ? u.codSupervisor : u.role === 'supervisor' ? rep.codSupervisor : null,
        password: u.password ?? options.password,
      });
    }
    await options.setUp?.({ db, erp, rep });
    state.server = await startWebServer(db.pool, options.server);
    for (let i = 0; i < (options.browsers ?? 1); i++) state.browsers.push(await launchBrowser());
    state.browsers[0]?.page.on('console', (m) => {
      if (m.type() === 'error') state.consoleErrors.push(m.text());
    });
    if (options.logIn) {
      const login = options.logIn;
      const password = options.users?.find((u) => u.login === login)?.password ?? options.password ?? '';
      await logIn(need(state.browsers[0], 'browser').page, state.server.url, login, password);
    }
  }, 120_000);

  afterAll(async () => {
    for (const b of state.browsers) await b.close();
    await state.server?.close();
  });

  screenshotOnFailure(options.screenshotOf ?? (() => state.current ?? state.browsers[0]?.page));

  return {
    db,
    get erp() {
      return need(state.erp, 'ERP');
    },
    get rep() {
      return need(state.rep, 'representative');
    },
    get server() {
      return need(state.server, 'server');
    },
    get browsers() {
      return state.browsers;
    },
    pageOf(index) {
      state.current = need(state.browsers[index], `browser ${index}`).page;
      return state.current;
    },
    get page() {
      return need(state.browsers[0], 'browser').page;
    },
    get context() {
      return need(state.browsers[0], 'browser').context;
    },
    goOffline() {
      return goOffline(need(state.server, 'server'), need(state.browsers[0], 'browser').context);
    },
    get consoleErrors() {
      return state.consoleErrors;
    },
    cspViolations() {
      return state.consoleErrors.filter((e) => /Content Security Policy/i.test(e));
    },
    async token(login, password = options.password) {
      const res = await fetch(`${need(state.server, 'server').url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login, password }),
      });
      if (res.status !== 200) throw new Error(`login of ${login} answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { token: string }).token;
    },
  };
}
