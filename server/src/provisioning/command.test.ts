import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const campo = fileURLToPath(new URL('../../bin/campo.mjs', import.meta.url));

describe('campo provision without a database', () => {
  it('exits 2 with one line naming DATABASE_URL when it is missing', () => {
    const { PATH, HOME } = process.env;
    const run = spawnSync(process.execPath, [campo, 'provision'], {
      env: { PATH, HOME },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^campo: .*DATABASE_URL/);
    expect(run.stdout).toBe('');
  });

  it('documents its options and exit codes in --help', () => {
    const run = spawnSync(process.execPath, [campo, 'provision', '--help'], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/--dry-run/);
    expect(run.stdout).toMatch(/--verbose/);
    for (const code of [0, 1, 2, 3, 4, 5]) expect(run.stdout).toMatch(new RegExp(`^  ${code}  `, 'm'));
  });
});
