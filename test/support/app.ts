import type pg from 'pg';
import { type AppConfig, createApp } from '../../server/src/app.ts';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256!';

export function testApp(pool: pg.Pool, config: Partial<AppConfig> = {}) {
  return createApp({ pool, config: { jwtSecret: TEST_JWT_SECRET, tokenTtlHours: 1, devLogin: false, ...config } });
}
