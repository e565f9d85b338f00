import { describe, expect, it } from 'vitest';
import { ConfigError, loadServerConfig } from './config.ts';

describe('loadServerConfig', () => {
  it('refuses a missing DATABASE_URL, naming it', () => {
    expect(() => loadServerConfig({})).toThrow(ConfigError);
    expect(() => loadServerConfig({})).toThrow(/DATABASE_URL/);
  });

  it.each(['', '   ', 'mysql://u@h/db', 'localhost:5432/erp', 'postgres://'])('refuses DATABASE_URL=%j', (url) => {
    expect(() => loadServerConfig({ DATABASE_URL: url })).toThrow(/DATABASE_URL/);
  });

  const secret = 'a'.repeat(32);

  it('accepts postgres:// and postgresql:// and defaults PORT to 8080', () => {
    expect(loadServerConfig({ DATABASE_URL: 'postgres://u@h/erp', JWT_SECRET: secret })).toMatchObject({ PORT: 8080 });
    expect(loadServerConfig({ DATABASE_URL: 'postgresql://u@h:5433/erp', PORT: '9000', JWT_SECRET: secret }).PORT).toBe(
      9000,
    );
  });

  it('refuses a PORT that is not a port', () => {
    expect(() => loadServerConfig({ DATABASE_URL: 'postgres://u@h/erp', PORT: 'http', JWT_SECRET: secret })).toThrow(
      /PORT/,
    );
  });

  it('requires a JWT_SECRET of at least 32 characters', () => {
    expect(() => loadServerConfig({ DATABASE_URL: 'postgres://u@h/erp' })).toThrow(/JWT_SECRET/);
    expect(() => loadServerConfig({ DATABASE_URL: 'postgres://u@h/erp', JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
  });

  it('reads MAP_TILE_URL as an https template with {z}, {x} and {y}, unset when empty', () => {
    const env = { DATABASE_URL: 'postgres://u@h/erp', JWT_SECRET: secret };
    const tiles = 'https://tiles.example.com/{z}/{x}/{y}.png';
    expect(loadServerConfig({ ...env, MAP_TILE_URL: tiles }).MAP_TILE_URL).toBe(tiles);
    expect(loadServerConfig({ ...env, MAP_TILE_URL: ' ' }).MAP_TILE_URL).toBeUndefined();
    for (const bad of ['http://tiles.example.com/{z}/{x}/{y}.png', 'https://tiles.example.com/{z}/{x}.png']) {
      expect(() => loadServerConfig({ ...env, MAP_TILE_URL: bad })).toThrow(/MAP_TILE_URL/);
    }
  });

  it('reads MAP_TILE_ATTRIBUTION as plain text of at most 200 characters, unset when empty', () => {
    const env = { DATABASE_URL: 'postgres://u@h/erp', JWT_SECRET: secret };
    const credit = '© colaboradores do OpenStreetMap';
    expect(loadServerConfig({ ...env, MAP_TILE_ATTRIBUTION: ` ${credit} ` }).MAP_TILE_ATTRIBUTION).toBe(credit);
    expect(loadServerConfig({ ...env, MAP_TILE_ATTRIBUTION: ' ' }).MAP_TILE_ATTRIBUTION).toBeUndefined();
    for (const bad of ['<a href="https://osm.org">OSM</a>', 'OSM\u0007', 'x'.repeat(201)]) {
      expect(() => loadServerConfig({ ...env, MAP_TILE_ATTRIBUTION: bad })).toThrow(/MAP_TILE_ATTRIBUTION/);
    }
  });

  it('refuses DEV_LOGIN in production', () => {
    const env = { DATABASE_URL: 'postgres://u@h/erp', JWT_SECRET: secret, DEV_LOGIN: '1' };
    expect(loadServerConfig({ ...env, NODE_ENV: 'development' }).DEV_LOGIN).toBe('1');
    expect(() => loadServerConfig({ ...env, NODE_ENV: 'production' })).toThrow(/DEV_LOGIN/);
  });

  it('reads TRUST_PROXY as a count of trusted proxies (0 by default) and refuses anything else', () => {
    const env = { DATABASE_URL: 'postgres://u@h/erp', JWT_SECRET: secret };
    expect(loadServerConfig(env).TRUST_PROXY).toBe(0);
    expect(loadServerConfig({ ...env, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadServerConfig({ ...env, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(() => loadServerConfig({ ...env, TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
    expect(() => loadServerConfig({ ...env, TRUST_PROXY: '-1' })).toThrow(/TRUST_PROXY/);
  });
  it('reads the product photos settings: no folder, no URLs and 64 MiB kept by default', () => {
    const env = { DATABASE_URL: 'postgres://u@h/erp', JWT_SECRET: secret };
    const defaults = loadServerConfig(env);
    expect(defaults.PRODUCT_IMAGES_DIR).toBeUndefined();
    expect(defaults).toMatchObject({ PRODUCT_IMAGES_URLS: '0', PRODUCT_IMAGES_CACHE_MB: 64 });
    expect(
      loadServerConfig({ ...env, PRODUCT_IMAGES_DIR: ' /srv/erp/imagens ', PRODUCT_IMAGES_URLS: '1' }),
    ).toMatchObject({ PRODUCT_IMAGES_DIR: '/srv/erp/imagens', PRODUCT_IMAGES_URLS: '1' });
    expect(loadServerConfig({ ...env, PRODUCT_IMAGES_DIR: '' }).PRODUCT_IMAGES_DIR).toBeUndefined();
    expect(() => loadServerConfig({ ...env, PRODUCT_IMAGES_URLS: 'yes' })).toThrow(/PRODUCT_IMAGES_URLS/);
    expect(() => loadServerConfig({ ...env, PRODUCT_IMAGES_CACHE_MB: '-1' })).toThrow(/PRODUCT_IMAGES_CACHE_MB/);
  });

  it('reads DATABASE_POOL_SIZE (10 by default) and refuses a size out of 2-200', () => {
    const env = { DATABASE_URL: 'postgres://u@h/erp', JWT_SECRET: secret };
    expect(loadServerConfig(env).DATABASE_POOL_SIZE).toBe(10);
    expect(loadServerConfig({ ...env, DATABASE_POOL_SIZE: '4' }).DATABASE_POOL_SIZE).toBe(4);
    for (const bad of ['1', '201', 'four', '2.5']) {
      expect(() => loadServerConfig({ ...env, DATABASE_POOL_SIZE: bad })).toThrow(/DATABASE_POOL_SIZE/);
    }
  });
  it('reads DATABASE_DIRECT_URL and DATABASE_REPLICA_URL (optional postgres URLs) and DATABASE_PREPARED_STATEMENTS (1 by default)', () => {
    const env = { DATABASE_URL: 'postgres://u@pgbouncer:6432/erp', JWT_SECRET: secret };
    expect(loadServerConfig(env).DATABASE_DIRECT_URL).toBeUndefined();
    expect(loadServerConfig(env).DATABASE_PREPARED_STATEMENTS).toBe('1');
    expect(loadServerConfig({ ...env, DATABASE_DIRECT_URL: '' }).DATABASE_DIRECT_URL).toBeUndefined();
    expect(loadServerConfig({ ...env, DATABASE_DIRECT_URL: 'postgres://u@db:5432/erp' }).DATABASE_DIRECT_URL).toBe(
      'postgres://u@db:5432/erp',
    );
    expect(() => loadServerConfig({ ...env, DATABASE_DIRECT_URL: 'db:5432/erp' })).toThrow(/DATABASE_DIRECT_URL/);
    expect(loadServerConfig({ ...env, DATABASE_PREPARED_STATEMENTS: '0' }).DATABASE_PREPARED_STATEMENTS).toBe('0');
    expect(loadServerConfig(env).DATABASE_REPLICA_URL).toBeUndefined();
    expect(loadServerConfig({ ...env, DATABASE_REPLICA_URL: 'postgres://u@standby/erp' }).DATABASE_REPLICA_URL).toBe(
      'postgres://u@standby/erp',
    );
    expect(() => loadServerConfig({ ...env, DATABASE_REPLICA_URL: 'standby' })).toThrow(/DATABASE_REPLICA_URL/);
    expect(() => loadServerConfig({ ...env, DATABASE_PREPARED_STATEMENTS: 'off' })).toThrow(
      /DATABASE_PREPARED_STATEMENTS/,
    );
  });
});
