// The server's environment, parsed once at start-up. DATABASE_URL has no default on purpose:
// Campo lives inside a client's ERP database, and silently connecting anywhere else would be
// worse than not starting.
import { z } from 'zod';

const ZDatabaseUrl = z
  .string({ error: 'DATABASE_URL is not set: give the ERP database, e.g. postgres://user:pass@host:5432/erp' })
  .trim()
  .min(1, 'DATABASE_URL is empty: give the ERP database, e.g. postgres://user:pass@host:5432/erp')
  .regex(/^postgres(ql)?:\/\/\S+$/, 'DATABASE_URL must be a postgres:// or postgresql:// URL');

const ZServerEnv = z
  .object({
    DATABASE_URL: ZDatabaseUrl,
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
  })
  .refine((env) => !(env.DEV_LOGIN === '1' && env.NODE_ENV === 'production'), {
    message: 'DEV_LOGIN=1 is refused when NODE_ENV=production',
    path: ['DEV_LOGIN'],
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
