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

  it('accepts postgres:// and postgresql:// and defaults PORT to 8080', () => {
    expect(loadServerConfig({ DATABASE_URL: 'postgres://u@h/erp' })).toMatchObject({ PORT: 8080 });
    expect(loadServerConfig({ DATABASE_URL: 'postgresql://u@h:5433/erp', PORT: '9000' }).PORT).toBe(9000);
  });

  it('refuses a PORT that is not a port', () => {
    expect(() => loadServerConfig({ DATABASE_URL: 'postgres://u@h/erp', PORT: 'http' })).toThrow(/PORT/);
  });
});
