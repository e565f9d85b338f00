/** Every REST and replication route lives under this prefix. */
export const API_BASE = '/api/v1';
