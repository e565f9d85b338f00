// Photos for the reference ERP's products, so the demo and the tests show real pictures: each
// product that names `produtos/<code>.jpg` gets that file, a JPEG drawn from an SVG in its
// group's colour, with a shape of its subgroup, turned and sized by its number, and its code
// written on it. Small (a few KB), distinct from one another, never blank. Written apart from
// the database load (an option of `campo erp-fixture`, and the demo's first run): a bench
// fixture of 20,000 products does not pay for pictures it does not show.
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type pg from 'pg';
import sharp from 'sharp';

/** Side of a fixture photo, px: larger than a thumbnail, smaller than the full size (never enlarged). */
export const FIXTURE_IMAGE_SIDE = 480;

// One hue per group (cod_grupo 1..6 in catalog-words.ts), a shape per subgroup.
const HUES = [205, 30, 140, 285, 50, 345, 175, 250];
const circle = (s: number) => `<circle cx="0" cy="0" r="${s}"/>`;
const SHAPES = [
  circle,
  (s: number) => `<rect x="${-s}" y="${-s}" width="${2 * s}" height="${2 * s}" rx="${s / 5}"/>`,
  (s: number) => `<polygon points="0,${-s} ${s * 0.95},${s * 0.75} ${-s * 0.95},${s * 0.75}"/>`,
  (s: number) => `<polygon points="0,${-s} ${s},0 0,${s} ${-s},0"/>`,
  (s: number) =>
    `<polygon points="${Array.from({ length: 6 }, (_, i) => `${s * Math.cos((i * Math.PI) / 3)},${s * Math.sin((i * Math.PI) / 3)}`).join(' ')}"/>`,
  (s: number) => `<rect x="${-s / 2}" y="${-s}" width="${s}" height="${2 * s}" rx="${s / 3}"/>`,
  (s: number) => `<ellipse cx="0" cy="0" rx="${s}" ry="${s * 0.6}"/>`,
];

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch] ?? ch,
  );

export interface FixtureImageProduct {
  code: string;
  description: string;
  grupo: number | null;
  subgrupo: number | null;
}

/** The SVG of one product's photo. */
export function productImageSvg(p: FixtureImageProduct): string {
  const side = FIXTURE_IMAGE_SIDE;
  const hue = HUES[(Math.max(1, p.grupo ?? 1) - 1) % HUES.length] ?? 0;
  const seq = Number(/\d+$/.exec(p.code)?.[0] ?? 0);
  const shape = SHAPES[(Math.max(1, p.subgrupo ?? 1) - 1) % SHAPES.length] ?? circle;
  const size = 80 + ((seq * 37) % 60);
  const turn = (seq * 47) % 360;
  const light = 40 + ((seq * 13) % 25);
  const words = escapeXml(p.description.split(' ').slice(0, 3).join(' ').slice(0, 28));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}">
  <rect width="${side}" height="${side}" fill="hsl(${hue},45%,93%)"/>
  <rect x="0" y="${side - 120}" width="${side}" height="120" fill="hsl(${hue},50%,${light - 15}%)"/>
  <g transform="translate(${side / 2},${side / 2 - 50}) rotate(${turn})" fill="hsl(${hue},65%,${light}%)" stroke="hsl(${hue},60%,25%)" stroke-width="6">
    ${shape(size)}
  </g>
  <text x="${side / 2}" y="${side - 66}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="44" font-weight="bold" text-anchor="middle" fill="#fff">${escapeXml(p.code)}</text>
  <text x="${side / 2}" y="${side - 24}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="24" text-anchor="middle" fill="#fff">${words}</text>
</svg>`;
}

/** Renders at once: sharp works on libuv's threads; more only queue there. */
const AT_ONCE = 8;

/**
 * Writes the photo of every product of the ERP in `pool` that names one as `produtos/<code>.jpg`
 * into `dir` (two tenants that share a code share the file). A file already there is kept, so a
 * second run costs only the query. Answers how many it wrote and how many were there.
 */
export async function writeProductImages(
  pool: pg.Pool,
  dir: string,
  onProgress?: (done: number, total: number) => void,
): Promise<{ written: number; kept: number; ms: number }> {
  const started = performance.now();
  const odoo = await pool.query<{ odoo: boolean }>(
    "select to_regclass('public.produtos') is null and to_regclass('public.product_template') is not null as odoo",
  );
  // The odoo profile's fixture (odoo.ts) numbers a group category 10000 * company + 100 *
  // cod_grupo and its subgroups that plus cod_subgrupo: the same photos as the reference's.
  const { rows } = await pool.query<FixtureImageProduct & { imagem: string }>(
    odoo.rows[0]?.odoo
      ? `select distinct on (t.x_imagem_url) t.x_imagem_url as imagem, pp.default_code as code,
                t.name as description, (t.categ_id / 100) % 100 as grupo, t.categ_id % 100 as subgrupo
           from public.product_product pp join public.product_template t on t.id = pp.product_tmpl_id
          where t.x_imagem_url ~ '^produtos/[A-Za-z0-9_-]+\\.jpg$'
          order by t.x_imagem_url, pp.id`
      : `select distinct on (imagem) imagem, cod_produto as code, descricao as description,
                cod_grupo as grupo, cod_subgrupo as subgrupo
           from public.produtos
          where imagem ~ '^produtos/[A-Za-z0-9_-]+\\.jpg$'
          order by imagem, id_produto`,
  );
  await mkdir(join(dir, 'produtos'), { recursive: true });
  let written = 0;
  let kept = 0;
  let next = 0;
  const work = async () => {
    for (let i = next++; i < rows.length; i = next++) {
      const p = rows[i] as (typeof rows)[number];
      const file = join(dir, p.imagem);
      if (
        await stat(file).then(
          (s) => s.size > 0,
          () => false,
        )
      ) {
        kept++;
      } else {
        const jpeg = await sharp(Buffer.from(productImageSvg(p)))
          .jpeg({ quality: 80 })
          .toBuffer();
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, jpeg);
        written++;
      }
      onProgress?.(written + kept, rows.length);
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, work));
  return { written, kept, ms: Math.round(performance.now() - started) };
}
