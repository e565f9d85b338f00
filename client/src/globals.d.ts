/** The app build's version (client/package.json), set by vite's `define` (vite.config.ts). */
declare const __APP_VERSION__: string;
