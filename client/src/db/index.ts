// The local store and its replication, for the screens and the session module.
export * from './database.ts';
export * from './outbox.ts';
export * from './replication.ts';
export * from './schemas.ts';
export * from './sync-state.ts';
export * from './visit-photos.ts';
