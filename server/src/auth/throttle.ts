// Password guessing is slowed down in PostgreSQL (app.tentativas_login), so the limits hold
// whichever server process answers (docs/security.md, "Failed logins and password spraying"):
// - per tenant's user and client address: a login names at most one user per tenant (migration
//   0016), so an attempt naming company E counts for login|E|address, that tenant's user. One
//   without a company is a guess at every user holding the login and counts for login|*|address.
//   After LOGIN_MAX_FAILURES attempts within LOGIN_WINDOW_MINUTES the key gets 429 until the
//   window passes. Per address, so nobody can lock a user out from elsewhere;
// - per client address across every login (password spraying: one guess for many logins):
//   after ADDRESS_MAX_FAILURES.
// A success clears only its own key: the user it logged in (issue 50: a success of another
// tenant's user of the same login, whose password that tenant's admin sets, cleared the victim's
// count). A login without company logs in only the one user holding the login, so its key held
// guesses at that user alone.
// An attempt is *reserved* before the password is checked, in one statement that counts and
// returns the counts (the row lock of the upsert serialises concurrent attempts), and given
// back when it succeeds. Checking the count first and recording the failure after the ~100 ms of
// scrypt let forty simultaneous guesses all through (issue #17).
import { plural } from '@campo/shared/format';
import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import { DomainError } from '../errors.ts';

export const LOGIN_MAX_FAILURES = 10;
export const ADDRESS_MAX_FAILURES = 50;
export const LOGIN_WINDOW_MINUTES = 15;

/** The keys of one attempt: its user's (the named company's, or every holder's) and its address's. */
export interface AttemptKeys {
  user: string;
  address: string;
}

export function attemptKeys(login: string, empresa: number | undefined, address: string): AttemptKeys {
  return {
    user: `${login.trim().toLowerCase()}|${empresa ?? '*'}|${address}`,
    // '*' is not a character a login may have (ZLogin), so an address key never equals a user's.
    address: `*|${address}`,
  };
}

const tooMany = (waitSeconds: number, detail: string) =>
  new DomainError(
    'TOO_MANY_LOGIN_ATTEMPTS',
    `${detail} Tente de novo em ${plural(Math.max(1, Math.ceil(waitSeconds / 60)), 'minuto', 'minutos')}.`,
    { retryAfterSeconds: Math.max(1, waitSeconds) },
  );

/**
 * Counts one attempt for both keys, atomically, and throws 429 TOO_MANY_LOGIN_ATTEMPTS (with the
 * wait in seconds) when either is over its limit. A refused attempt stays counted: it was made.
 */
export async function reserveLoginAttempt(db: Db, keys: AttemptKeys): Promise<void> {
  // Both rows in one statement, in key order, so two concurrent attempts lock them in the same order.
  const { rows } = await sql<{ chave: string; falhas: number; espera: number }>`
    insert into app.tentativas_login as t (chave, falhas, janela_inicio)
    select k, 1, now() from unnest(${[keys.user, keys.address].sort()}::text[]) as k order by k
    on conflict (chave) do update
       set falhas = case when t.janela_inicio <= now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES}) then 1
                         else t.falhas + 1 end,
           janela_inicio = case when t.janela_inicio <= now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES})
                                then now() else t.janela_inicio end
    returning chave, falhas,
              ceil(extract(epoch from janela_inicio + make_interval(mins => ${LOGIN_WINDOW_MINUTES}) - now()))::integer
                as espera`.execute(db);
  const userRow = rows.find((r) => r.chave === keys.user);
  const addressRow = rows.find((r) => r.chave === keys.address);
  if (userRow && userRow.falhas > LOGIN_MAX_FAILURES) {
    throw tooMany(userRow.espera, 'Muitas tentativas com senha errada.');
  }
  if (addressRow && addressRow.falhas > ADDRESS_MAX_FAILURES) {
    throw tooMany(addressRow.espera, 'Muitas tentativas de login a partir deste endereço.');
  }
}

/**
 * Gives a reserved attempt back, in one statement. `'succeeded'`: the password logged its user
 * in, so that user's key is cleared (its own earlier failures no longer count; nobody else's key
 * is touched); `'unchecked'`: the password was never checked (the server was too busy), so the
 * attempt is taken off both keys. The address keeps its failures either way.
 */
export async function releaseLoginAttempt(
  db: Db,
  keys: AttemptKeys,
  outcome: 'succeeded' | 'unchecked',
): Promise<void> {
  const succeeded = outcome === 'succeeded';
  const lessOne = succeeded ? [keys.address] : [keys.user, keys.address].sort();
  await sql`
    with cleared as (delete from app.tentativas_login where ${succeeded} and chave = ${keys.user})
    update app.tentativas_login set falhas = greatest(falhas - 1, 0)
     where chave = any(${lessOne}::text[])`.execute(db);
}
