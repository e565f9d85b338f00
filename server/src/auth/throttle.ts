// Password guessing is slowed down per login and client address: after LOGIN_MAX_FAILURES
// failed attempts within LOGIN_WINDOW_MINUTES, that pair gets 429 until the window passes.
// Kept in PostgreSQL (app.tentativas_login), so the limit holds whichever server process
// answers. Per pair rather than per login alone, so nobody can lock a user out from elsewhere.
import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import { HttpProblem } from '../http/problem.ts';

export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MINUTES = 15;

const keyOf = (login: string, address: string) => `${login.trim().toLowerCase()}|${address}`;

/** Throws 429 TOO_MANY_LOGIN_ATTEMPTS when the pair is over the limit, with the wait in seconds. */
export async function assertLoginAllowed(db: Db, login: string, address: string): Promise<void> {
  const { rows } = await sql<{ espera: number }>`
    select ceil(extract(epoch from janela_inicio + make_interval(mins => ${LOGIN_WINDOW_MINUTES}) - now()))::integer as espera
      from app.tentativas_login
     where chave = ${keyOf(login, address)} and falhas >= ${LOGIN_MAX_FAILURES}
       and janela_inicio > now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES})`.execute(db);
  const wait = rows[0]?.espera;
  if (wait !== undefined) {
    throw new HttpProblem(
      429,
      'TOO_MANY_LOGIN_ATTEMPTS',
      'Muitas tentativas de login',
      `Muitas tentativas com senha errada. Tente de novo em ${Math.max(1, Math.ceil(wait / 60))} minuto(s).`,
      { retryAfterSeconds: Math.max(1, wait) },
    );
  }
}

export async function recordLoginFailure(db: Db, login: string, address: string): Promise<void> {
  await sql`
    insert into app.tentativas_login as t (chave, falhas, janela_inicio)
    values (${keyOf(login, address)}, 1, now())
    on conflict (chave) do update
       set falhas = case when t.janela_inicio <= now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES}) then 1
                         else t.falhas + 1 end,
           janela_inicio = case when t.janela_inicio <= now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES})
                                then now() else t.janela_inicio end`.execute(db);
}

export async function clearLoginFailures(db: Db, login: string, address: string): Promise<void> {
  await db.deleteFrom('app.tentativas_login').where('chave', '=', keyOf(login, address)).execute();
}
