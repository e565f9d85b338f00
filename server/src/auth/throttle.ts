// Password guessing is slowed down in PostgreSQL (app.tentativas_login), so the limits hold
// whichever server process answers:
// - per login and client address: after LOGIN_MAX_FAILURES attempts within LOGIN_WINDOW_MINUTES
//   that pair gets 429 until the window passes. Per pair rather than per login alone, so nobody
//   can lock a user out from elsewhere;
// - per client address across every login (password spraying: one guess for many logins):
//   after ADDRESS_MAX_FAILURES.
// An attempt is *reserved* before the password is checked, in one statement that counts and
// returns the count (the row lock of the upsert serialises concurrent attempts), and given back
// when it succeeds. Checking the count first and recording the failure after the ~100 ms of
// scrypt let forty simultaneous guesses all through (issue #17).
import { plural } from '@campo/shared/format';
import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import { DomainError } from '../errors.ts';

export const LOGIN_MAX_FAILURES = 10;
export const ADDRESS_MAX_FAILURES = 50;
export const LOGIN_WINDOW_MINUTES = 15;

const pairKey = (login: string, address: string) => `${login.trim().toLowerCase()}|${address}`;
// '*' is not a character a login may have (ZLogin), so an address key never equals a pair key.
const addressKey = (address: string) => `*|${address}`;

const tooMany = (waitSeconds: number, detail: string) =>
  new DomainError(
    'TOO_MANY_LOGIN_ATTEMPTS',
    `${detail} Tente de novo em ${plural(Math.max(1, Math.ceil(waitSeconds / 60)), 'minuto', 'minutos')}.`,
    { retryAfterSeconds: Math.max(1, waitSeconds) },
  );

/**
 * Counts one attempt for the pair and for the address, atomically, and throws 429
 * TOO_MANY_LOGIN_ATTEMPTS (with the wait in seconds) when either is over its limit. A refused
 * attempt stays counted: it was made.
 */
export async function reserveLoginAttempt(db: Db, login: string, address: string): Promise<void> {
  const pair = pairKey(login, address);
  const whole = addressKey(address);
  // Both rows in one statement, in key order, so two concurrent attempts lock them in the same order.
  const { rows } = await sql<{ chave: string; falhas: number; espera: number }>`
    insert into app.tentativas_login as t (chave, falhas, janela_inicio)
    select k, 1, now() from unnest(${[pair, whole].sort()}::text[]) as k order by k
    on conflict (chave) do update
       set falhas = case when t.janela_inicio <= now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES}) then 1
                         else t.falhas + 1 end,
           janela_inicio = case when t.janela_inicio <= now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES})
                                then now() else t.janela_inicio end
    returning chave, falhas,
              ceil(extract(epoch from janela_inicio + make_interval(mins => ${LOGIN_WINDOW_MINUTES}) - now()))::integer
                as espera`.execute(db);
  const pairRow = rows.find((r) => r.chave === pair);
  const addressRow = rows.find((r) => r.chave === whole);
  if (pairRow && pairRow.falhas > LOGIN_MAX_FAILURES) {
    throw tooMany(pairRow.espera, 'Muitas tentativas com senha errada.');
  }
  if (addressRow && addressRow.falhas > ADDRESS_MAX_FAILURES) {
    throw tooMany(addressRow.espera, 'Muitas tentativas de login a partir deste endereço.');
  }
}

/**
 * Gives a reserved attempt back. `succeeded`: the password was right, so the pair's count is
 * cleared (a successful login wipes its earlier failures); otherwise (the check never ran, e.g.
 * the server was too busy) only this attempt is taken off. The address keeps its failures either way.
 */
export async function releaseLoginAttempt(db: Db, login: string, address: string, succeeded: boolean): Promise<void> {
  const pair = pairKey(login, address);
  if (succeeded) await db.deleteFrom('app.tentativas_login').where('chave', '=', pair).execute();
  const keys = succeeded ? [addressKey(address)] : [pair, addressKey(address)].sort();
  await sql`
    update app.tentativas_login set falhas = greatest(falhas - 1, 0)
     where chave = any(${keys}::text[])`.execute(db);
}
