// The reference ERP's product photos in a folder of their own, for a test server's images
// folder (AppConfig.productImages.dir, PRODUCT_IMAGES_DIR in production).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { writeProductImages } from '../../server/src/erp-fixture/images.ts';

/**
 * Draws the photo of every product of the ERP in `pool` that names one into a new temporary
 * folder (a tiny fixture: about 60 files, under a second); `remove` deletes the folder.
 */
export async function fixtureImages(pool: pg.Pool): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'campo-images-'));
  await writeProductImages(pool, dir);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
