export * from './api.ts';
export * from './health.ts';
