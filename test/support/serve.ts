// `campo serve` as a real process, for the tests that need one (a SIGKILL, a pooler in front).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { TEST_JWT_SECRET } from './app.ts';

const campo = fileURLToPath(new URL('../../server/bin/campo.mjs', import.meta.url));

/**
 * Starts `campo serve` on `port` (0: a free one) with `env` over the test defaults; resolves
 * once it listens, with its base URL and its exit (listened for from the start: a SIGKILL may
 * end it before anyone awaits it).
 */
export async function serveProcess(
  env: Record<string, string> & { DATABASE_URL: string },
  port = 0,
): Promise<{ child: ChildProcess; base: string; exited: Promise<unknown[]> }> {
  const child = spawn(process.execPath, [campo, 'serve', '--port', String(port)], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      JWT_SECRET: TEST_JWT_SECRET,
      HOST: '127.0.0.1',
      SYNC_REFRESH_SECONDS: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    let found = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      if (found) return;
      out += chunk.toString();
      const listening = /"msg":"listening"/.test(out) ? /"port":(\d+)/.exec(out) : null;
      if (listening) {
        found = true;
        resolve({ child, base: `http://127.0.0.1:${listening[1]}`, exited });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => {
      if (!found) reject(new Error(`campo serve exited (${code}) before listening: ${out}${err}`));
    });
  });
}
