import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const campo = fileURLToPath(new URL('../../bin/campo.mjs', import.meta.url));

function serveWith(env: Record<string, string>) {
  const { PATH, HOME } = process.env;
  return spawnSync(process.execPath, [campo, 'serve'], {
    env: { PATH, HOME, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('campo serve', () => {
  it('exits non-zero with one line naming DATABASE_URL when it is missing', () => {
    const run = serveWith({});
    expect(run.status).not.toBe(0);
    expect(run.status).not.toBeNull();
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/DATABASE_URL/);
    expect(run.stdout).not.toMatch(/listening/);
  });

  it('exits non-zero when DATABASE_URL is not a postgres URL', () => {
    const run = serveWith({ DATABASE_URL: 'mysql://root@localhost/erp' });
    expect(run.status).not.toBe(0);
    expect(run.stderr.trim()).toMatch(/^campo: DATABASE_URL must be a postgres/);
  });
});
