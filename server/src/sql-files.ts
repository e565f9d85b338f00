import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's sql/ folder: plain SQL, shipped as it is. */
export const SQL_DIR = fileURLToPath(new URL('../../sql/', import.meta.url));

export interface SqlFile {
  name: string;
  path: string;
  sql: string;
}

/** The .sql files of a folder under sql/, in name order (names are numbered). */
export async function readSqlFiles(folder: string): Promise<SqlFile[]> {
  const dir = join(SQL_DIR, folder);
  const names = (await readdir(dir)).filter((n) => n.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (name) => ({ name, path: join(dir, name), sql: await readFile(join(dir, name), 'utf8') })),
  );
}
