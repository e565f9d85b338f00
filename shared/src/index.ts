export * from './api.ts';
export * from './auth.ts';
export * from './discount-engine.ts';
export * from './documents.ts';
export * from './health.ts';
export * from './latin1.ts';
export * from './problem.ts';
