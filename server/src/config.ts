// The server's environment, parsed once at start-up. DATABASE_URL has no default on purpose:
// Campo lives inside a client's ERP database, and silently connecting anywhere else would be
// worse than not starting.
import { z } from 'zod';
import {
  DEFAULT_PUSH_ENDPOINT_HOSTS,
  type PushSettings,
  vapidKeyProblem,
  vapidSubjectProblem,
} from './notifications/vapid.ts';

const ZDatabaseUrl = z
  .string({ error: 'DATABASE_URL is not set: give the ERP database, e.g. postgres://user:pass@host:5432/erp' })
  .trim()
  .min(1, 'DATABASE_URL is empty: give the ERP database, e.g. postgres://user:pass@host:5432/erp')
  .regex(/^postgres(ql)?:\/\/\S+$/, 'DATABASE_URL must be a postgres:// or postgresql:// URL');

// Push is optional: without the three VAPID variables the server runs with push disabled.
// An empty variable counts as unset, as compose files and systemd units often leave them.
const unsetWhenEmpty = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const ZOptionalEnv = z.preprocess(unsetWhenEmpty, z.string().trim().optional());
const VAPID_VARS = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const;

const ZOptionalDatabaseUrl = (name: string) =>
  z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .trim()
      .regex(/^postgres(ql)?:\/\/\S+$/, `${name} must be a postgres:// or postgresql:// URL`)
      .optional(),
  );

const ZServerEnv = z
  .object({
    DATABASE_URL: ZDatabaseUrl,
    /**
     * A connection that keeps its session, for the change hub's LISTEN, when DATABASE_URL goes
     * through a transaction pooler (PgBouncer in transaction mode); unset: DATABASE_URL.
     */
    DATABASE_DIRECT_URL: ZOptionalDatabaseUrl('DATABASE_DIRECT_URL'),
    /**
     * A hot standby of the database the pull reads from once it has replayed far enough; the
     * primary answers what it cannot. Unset: every pull reads DATABASE_URL.
     */
    DATABASE_REPLICA_URL: ZOptionalDatabaseUrl('DATABASE_REPLICA_URL'),
    /**
     * Connections this process keeps to DATABASE_URL (and as many to DATABASE_REPLICA_URL). Each is a
     * PostgreSQL backend in the ERP's server: more than its cores only queue there, at a cost
     * (docs/deployment.md).
     */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(10),
    /**
     * How long a new connection to the database may take before the request that wanted it
     * answers 503 DATABASE_UNAVAILABLE: a database host that drops packets (a firewall, a network
     * partition) would otherwise hold every request until the kernel gives up, minutes later.
     */
    DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
    /** 0: the hot paths' statements are sent unnamed (a pooler that cannot keep prepared statements). */
    DATABASE_PREPARED_STATEMENTS: z.enum(['0', '1']).default('1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    JWT_SECRET: z
      .string({ error: 'JWT_SECRET is not set: give a random secret of at least 32 characters (openssl rand -hex 32)' })
      .min(32, 'JWT_SECRET must have at least 32 characters'),
    TOKEN_TTL_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(24 * 7),
    DEV_LOGIN: z.enum(['0', '1']).default('0'),
    /**
     * How many proxies in front of the server append to X-Forwarded-For (1 behind one load balancer):
     * the login limits take the client address that the outermost of them added. 0: the socket's.
     */
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    /**
     * max-age of Strict-Transport-Security, sent when a trusted proxy (TRUST_PROXY) says the request
     * came over HTTPS; 0: never sent (docs/deployment.md).
     */
    HSTS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(63_072_000).default(31_536_000),
    /** Seconds between refreshes of the replication change log of every tenant; 0 turns it off. */
    SYNC_REFRESH_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
    /** Devices downloading from the start at once in this process; the rest wait in line (docs/sync.md). */
    SYNC_DOWNLOADS: z.coerce.number().int().min(1).max(1000).default(16),
    /** Seconds a device waits in that line before 503 SYNC_BUSY with Retry-After (it keeps its place). */
    SYNC_QUEUE_SECONDS: z.coerce.number().int().min(1).max(300).default(20),
    /** MiB of full pull pages this process keeps to answer again (docs/sync.md); 0: none. */
    SYNC_PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
    /** Seconds SIGTERM waits for in-flight requests before closing what is left and exiting. */
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
    VAPID_PUBLIC_KEY: ZOptionalEnv,
    VAPID_PRIVATE_KEY: ZOptionalEnv,
    VAPID_SUBJECT: ZOptionalEnv,
    PUSH_ENDPOINT_HOSTS: ZOptionalEnv,
    /** The built PWA to serve at `/`; unset: client/dist of this checkout when it was built. */
    WEB_ROOT: ZOptionalEnv,
    /**
     * The folder the ERP's relative image paths (produtos.imagem) are read under; unset: such
     * products have no photo (docs/deployment.md, "Product photos").
     */
    PRODUCT_IMAGES_DIR: ZOptionalEnv,
    /** 1: product images the ERP names by an http(s) URL are fetched by the server (public addresses only). */
    PRODUCT_IMAGES_URLS: z.enum(['0', '1']).default('0'),
    /** MiB of resized product photos this process keeps in memory; 0: none (every request resizes). */
    PRODUCT_IMAGES_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
    /**
     * The map tiles of the supervisor's visits screen: an https URL template with {z}, {x} and {y}
     * (docs/visits.md); unset: the screen lists the visits by time instead of drawing a map.
     */
    MAP_TILE_URL: z.preprocess(
      unsetWhenEmpty,
      z
        .string()
        .max(500)
        .regex(/^https:\/\/[^\s]+$/, 'MAP_TILE_URL must be an https URL')
        .refine((u) => ['{z}', '{x}', '{y}'].every((p) => u.includes(p)), 'MAP_TILE_URL must hold {z}, {x} and {y}')
        .optional(),
    ),
    /**
     * The credit the tile server asks for (OpenStreetMap's tile policy requires one), shown on
     * the map as plain text: no HTML, no control characters, at most 200 characters.
     */
    MAP_TILE_ATTRIBUTION: z.preprocess(
      unsetWhenEmpty,
      z
        .string()
        .trim()
        .max(200, 'MAP_TILE_ATTRIBUTION holds at most 200 characters')
        .regex(/^[^<>\p{Cc}]+$/u, 'MAP_TILE_ATTRIBUTION is plain text: no HTML tags, no control characters')
        .optional(),
    ),
    /** Port of GET /metrics (Prometheus), apart from the API's; unset: no metrics endpoint. */
    METRICS_PORT: z.preprocess(unsetWhenEmpty, z.coerce.number().int().min(0).max(65535).optional()),
  })
  .refine((env) => !(env.DEV_LOGIN === '1' && env.NODE_ENV === 'production'), {
    message: 'DEV_LOGIN=1 is refused when NODE_ENV=production',
    path: ['DEV_LOGIN'],
  })
  .superRefine((env, ctx) => {
    // One line for the whole group: half a configuration is a mistake, never a way to disable push.
    const missing = VAPID_VARS.filter((name) => env[name] === undefined);
    if (missing.length === VAPID_VARS.length) return;
    if (missing.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: [missing[0] ?? ''],
        message: `${missing.join(' and ')} not set: push needs VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT together (campo vapid generate), or none of them to run without push`,
      });
      return;
    }
    const problem =
      vapidKeyProblem(env.VAPID_PUBLIC_KEY ?? '', env.VAPID_PRIVATE_KEY ?? '') ??
      vapidSubjectProblem(env.VAPID_SUBJECT ?? '');
    if (problem) ctx.addIssue({ code: 'custom', path: ['VAPID_PUBLIC_KEY'], message: problem });
  });

export type ServerConfig = z.infer<typeof ZServerEnv>;

export class ConfigError extends Error {}

function parse<T>(schema: z.ZodType<T>, env: NodeJS.ProcessEnv): T {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  // One line per bad variable, each naming it, so an operator sees at once what to fix.
  const lines = result.error.issues.map((issue) => {
    const message = issue.message;
    const name = String(issue.path[0] ?? '');
    return message.includes(name) ? message : `${name}: ${message}`;
  });
  throw new ConfigError(lines.join('\n'));
}

export function loadServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  // The database first and alone: without it nothing else matters, and the operator gets one line.
  loadDatabaseUrl(env);
  return parse(ZServerEnv, env);
}

/** For CLI commands that only need the database. */
export function loadDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return parse(z.object({ DATABASE_URL: ZDatabaseUrl }), env).DATABASE_URL;
}

/** Push settings from a parsed configuration: vapid is null when the VAPID variables are unset. */
export function pushSettings(config: ServerConfig): PushSettings {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: subject } = config;
  const hosts = config.PUSH_ENDPOINT_HOSTS?.split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return {
    vapid: publicKey && privateKey && subject ? { publicKey, privateKey, subject } : null,
    endpointHosts: hosts?.length ? hosts : DEFAULT_PUSH_ENDPOINT_HOSTS,
  };
}
