import { createRequire } from 'node:module';

export const SERVER_VERSION: string = createRequire(import.meta.url)('../package.json').version;
