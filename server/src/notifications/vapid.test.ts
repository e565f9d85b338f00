import { spawnSync } from 'node:child_process';
import { createECDH } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadServerConfig, pushSettings } from '../config.ts';
import { DEFAULT_PUSH_ENDPOINT_HOSTS, endpointHostAllowed, generateVapidKeys } from './vapid.ts';

const base = { DATABASE_URL: 'postgres://u@h/erp', JWT_SECRET: 'a'.repeat(32) };
const keys = generateVapidKeys();
const full = {
  ...base,
  VAPID_PUBLIC_KEY: keys.publicKey,
  VAPID_PRIVATE_KEY: keys.privateKey,
  VAPID_SUBJECT: 'mailto:ti@distribuidora.com.br',
};

function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadServerConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error('the configuration was accepted');
}

describe('VAPID configuration', () => {
  it('runs with push disabled when none of the three is set, or all are empty', () => {
    expect(pushSettings(loadServerConfig(base)).vapid).toBeNull();
    const empty = { ...base, VAPID_PUBLIC_KEY: '', VAPID_PRIVATE_KEY: ' ', VAPID_SUBJECT: '' };
    expect(pushSettings(loadServerConfig(empty)).vapid).toBeNull();
  });

  it('enables push with a matching pair and a subject', () => {
    expect(pushSettings(loadServerConfig(full))).toEqual({
      vapid: { publicKey: keys.publicKey, privateKey: keys.privateKey, subject: 'mailto:ti@distribuidora.com.br' },
      endpointHosts: DEFAULT_PUSH_ENDPOINT_HOSTS,
    });
    expect(loadServerConfig({ ...full, VAPID_SUBJECT: 'https://distribuidora.com.br/contato' })).toBeTruthy();
  });

  it.each([
    ['VAPID_PUBLIC_KEY', /VAPID_PUBLIC_KEY not set/],
    ['VAPID_PRIVATE_KEY', /VAPID_PRIVATE_KEY not set/],
    ['VAPID_SUBJECT', /VAPID_SUBJECT not set/],
  ])('refuses to start without %s when the others are set, in one line', (missing, message) => {
    const env: NodeJS.ProcessEnv = { ...full };
    delete env[missing];
    const error = configError(env);
    expect(error).toMatch(message);
    expect(error.split('\n')).toHaveLength(1);
  });

  it('names both missing variables in the same line', () => {
    const error = configError({ ...base, VAPID_PUBLIC_KEY: keys.publicKey });
    expect(error).toBe(
      'VAPID_PRIVATE_KEY and VAPID_SUBJECT not set: push needs VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT together (campo vapid generate), or none of them to run without push',
    );
  });

  it('refuses keys that do not belong together, or are not keys', () => {
    const other = generateVapidKeys();
    expect(configError({ ...full, VAPID_PRIVATE_KEY: other.privateKey })).toMatch(/does not belong/);
    expect(configError({ ...full, VAPID_PUBLIC_KEY: 'abc' })).toMatch(/VAPID_PUBLIC_KEY must be a P-256 public key/);
    expect(configError({ ...full, VAPID_PRIVATE_KEY: `${keys.privateKey}==` })).toMatch(/VAPID_PRIVATE_KEY must be/);
  });

  it('refuses a subject push services would refuse', () => {
    for (const subject of ['ti@distribuidora.com.br', 'http://distribuidora.com.br', 'mailto:']) {
      expect(configError({ ...full, VAPID_SUBJECT: subject })).toMatch(/VAPID_SUBJECT must be/);
    }
  });

  it('reads PUSH_ENDPOINT_HOSTS as a comma-separated list', () => {
    const settings = pushSettings(
      loadServerConfig({ ...full, PUSH_ENDPOINT_HOSTS: ' FCM.googleapis.com, push.example ' }),
    );
    expect(settings.endpointHosts).toEqual(['fcm.googleapis.com', 'push.example']);
  });
});

describe('endpointHostAllowed', () => {
  it.each([
    ['https://fcm.googleapis.com/fcm/send/abc', true],
    ['https://updates.push.services.mozilla.com/wpush/v2/abc', true],
    ['https://wns2-by3p.notify.windows.com/w/?token=abc', true],
    ['https://web.push.apple.com/QGuX', true],
    ['https://evilpush.apple.com.attacker.example/x', false],
    ['https://notpush.services.mozilla.com.evil/x', false],
    ['https://10.0.0.1/x', false],
    ['not a url', false],
  ])('%s → %s', (endpoint, allowed) => {
    expect(endpointHostAllowed(endpoint, DEFAULT_PUSH_ENDPOINT_HOSTS)).toBe(allowed);
  });
});

describe('campo vapid generate', () => {
  const campo = fileURLToPath(new URL('../../bin/campo.mjs', import.meta.url));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [campo, 'vapid', 'generate', ...args], { encoding: 'utf8' });

  it('prints a new matching pair as env lines, and the subject as a commented hint', () => {
    const out = run();
    expect(out.status).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    const env = Object.fromEntries(
      lines.filter((l) => !l.startsWith('#')).map((l) => l.split('=') as [string, string]),
    );
    expect(Object.keys(env)).toEqual(['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY']);
    // The pair matches: the public key is the one the private key derives.
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(env.VAPID_PRIVATE_KEY ?? '', 'base64url'));
    expect(ecdh.getPublicKey().toString('base64url')).toBe(env.VAPID_PUBLIC_KEY);
    expect(lines[2]).toMatch(/^# VAPID_SUBJECT=mailto:/);
  }, 30_000);

  it('prints the subject when given', () => {
    expect(run('--subject', 'mailto:ti@distribuidora.com.br').stdout).toMatch(
      /\nVAPID_SUBJECT=mailto:ti@distribuidora\.com\.br\n$/,
    );
  }, 30_000);

  it('refuses a subject push services would refuse', () => {
    const bad = run('--subject', 'ti@distribuidora.com.br');
    expect(bad.status).toBe(3);
    expect(bad.stderr).toMatch(/VAPID_SUBJECT must be/);
    expect(bad.stdout).toBe('');
  }, 30_000);
});
