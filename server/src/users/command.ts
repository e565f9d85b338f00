import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline/promises';
import { type Command, InvalidArgumentError } from 'commander';
import { loadDatabaseUrl } from '../config.ts';
import { createDb, type Db } from '../db/kysely.ts';
import { createPool } from '../db/pool.ts';
import { DomainError } from '../errors.ts';
import { addUser, resetPassword, setUserActive } from './service.ts';

const EXIT_USER_ERROR = 3;
// A login is unique per tenant only (migration 0016): where several tenants hold it, say which.
const EMPRESA_HELP = 'tenant (head-office id_empresa); required when the login exists in several';

function int(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive whole number');
  return n;
}

/** The password from stdin (piped, or typed at a prompt), or a generated one that is printed once. */
async function readPassword(fromStdin: boolean): Promise<{ password: string; generated: boolean }> {
  if (!fromStdin) return { password: randomBytes(12).toString('base64url'), generated: true };
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  if (process.stdin.isTTY) process.stderr.write('Senha: ');
  for await (const line of rl) {
    rl.close();
    return { password: line, generated: false };
  }
  return { password: '', generated: false };
}

async function withDb(fn: (db: Db) => Promise<void>): Promise<void> {
  const pool = createPool(loadDatabaseUrl(), 2);
  const db = createDb(pool);
  try {
    await fn(db);
  } catch (err) {
    // Text the database cannot hold (22P05: outside LATIN1; 22021: NUL) is the operator's input,
    // not a crash: say so and exit as for any refused input.
    const pgCode = (err as { code?: unknown }).code;
    const unstorable = pgCode === '22P05' || pgCode === '22021';
    if (!(err instanceof DomainError) && !unstorable) throw err;
    process.stderr.write(
      `campo: ${unstorable ? 'um dos textos tem um caractere que o banco não aceita (por exemplo um caractere nulo)' : (err as Error).message}\n`,
    );
    process.exitCode = EXIT_USER_ERROR;
  } finally {
    await db.destroy();
  }
}

export function registerUserCommand(program: Command): void {
  const user = program
    .command('user')
    .description('Manage Campo logins (stored hashed in app.usuarios)')
    .addHelpText('after', `\nExit codes: 0 done, 2 bad configuration, ${EXIT_USER_ERROR} refused (see the message)`);

  user
    .command('add')
    .description('Create a login for a representative, supervisor, manager or admin of one tenant')
    .requiredOption('--login <login>', 'login name, usually the e-mail')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--role <role>', 'representative | supervisor | manager | admin')
    .requiredOption('--empresa <id>', 'tenant: head-office id_empresa (a login is unique within it)', int)
    .option('--vendedor <cod>', 'cod_vendedor (representatives)', int)
    .option('--supervisor <cod>', 'cod_supervisor (supervisors)', int)
    .option('--password-stdin', 'read the password from standard input instead of generating one')
    .action(async (o) => {
      await withDb(async (db) => {
        const { password, generated } = await readPassword(Boolean(o.passwordStdin));
        const created = await addUser(db, {
          login: o.login,
          name: o.name,
          role: o.role,
          idEmpresa: o.empresa,
          codVendedor: o.vendedor ?? null,
          codSupervisor: o.supervisor ?? null,
          password,
        });
        process.stdout.write(`user ${created.login} created (id ${created.id})\n`);
        if (generated) process.stdout.write(`password: ${password}\n`);
      });
    });

  user
    .command('reset-password')
    .description('Set a new password; every token issued before stops working')
    .argument('<login>')
    .option('--empresa <id>', EMPRESA_HELP, int)
    .option('--password-stdin', 'read the password from standard input instead of generating one')
    .action(async (login: string, o) => {
      await withDb(async (db) => {
        const { password, generated } = await readPassword(Boolean(o.passwordStdin));
        await resetPassword(db, login, password, o.empresa);
        process.stdout.write(`password of ${login} reset\n`);
        if (generated) process.stdout.write(`password: ${password}\n`);
      });
    });

  user
    .command('disable')
    .description('Disable a login and revoke its tokens; the app wipes its local data at the next contact')
    .argument('<login>')
    .option('--empresa <id>', EMPRESA_HELP, int)
    .action(async (login: string, o: { empresa?: number }) => {
      await withDb(async (db) => {
        await setUserActive(db, login, false, o.empresa);
        process.stdout.write(`user ${login} disabled\n`);
      });
    });

  user
    .command('enable')
    .description('Enable a disabled login again (old tokens stay revoked)')
    .argument('<login>')
    .option('--empresa <id>', EMPRESA_HELP, int)
    .action(async (login: string, o: { empresa?: number }) => {
      await withDb(async (db) => {
        await setUserActive(db, login, true, o.empresa);
        process.stdout.write(`user ${login} enabled\n`);
      });
    });
}
