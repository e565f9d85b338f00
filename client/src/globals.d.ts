/** The app build's version (client/package.json), set by vite's `define` (vite.config.ts). */
declare const __APP_VERSION__: string;
/** The product photos' default byte budget in MB (CAMPO_FOTOS_MB at build time; vite.config.ts). */
declare const __PHOTO_BUDGET_MB__: number;
