// `pnpm -F @campo/client icons`: draws the app icons (public/icons/*.png) from the same
// geometry as public/favicon.svg. The PNGs are committed: a rasteriser (sharp, resvg, a
// browser) would be a heavy or native dependency for three files that rarely change, and
// PNG is a few lines of node:zlib.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const OUT = fileURLToPath(new URL('../public/icons/', import.meta.url));
const BACKGROUND = [0x00, 0x81, 0x5f] as const; // Pico jade 600, the manifest's theme colour
const FOREGROUND = [0xff, 0xff, 0xff] as const;

/**
 * Coverage of the glyph at (x, y) in a unit square: an open ring (a "C") with a leaf-shaped
 * dot in its mouth, centred on (0.5, 0.5) with outer radius `r`. Matches favicon.svg.
 */
function glyph(x: number, y: number, r: number): boolean {
  const dx = x - 0.5;
  const dy = y - 0.5;
  const d = Math.hypot(dx, dy);
  const angle = Math.atan2(dy, dx);
  const inRing = d <= r && d >= r * 0.62 && Math.abs(angle) >= Math.PI / 4;
  const dot = Math.hypot(dx - r * 0.62, dy) <= r * 0.17;
  return inRing || dot;
}

/** Rounded square of side 1 with corner radius `rc`; `rc = 0` is the full square. */
function inRoundedSquare(x: number, y: number, rc: number): boolean {
  const cx = Math.min(Math.max(x, rc), 1 - rc);
  const cy = Math.min(Math.max(y, rc), 1 - rc);
  return Math.hypot(x - cx, y - cy) <= rc;
}

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An RGBA PNG; 4×4 samples per pixel keep the curves smooth. */
function png(size: number, opts: { corner: number; glyphRadius: number }): Buffer {
  const SS = 4;
  const raw = Buffer.alloc(size * (1 + size * 4));
  for (let py = 0; py < size; py++) {
    raw[py * (1 + size * 4)] = 0; // filter: none
    for (let px = 0; px < size; px++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const x = (px + (sx + 0.5) / SS) / size;
          const y = (py + (sy + 0.5) / SS) / size;
          if (!inRoundedSquare(x, y, opts.corner)) continue;
          bg++;
          if (glyph(x, y, opts.glyphRadius)) fg++;
        }
      }
      const n = SS * SS;
      const o = py * (1 + size * 4) + 1 + px * 4;
      const f = bg ? fg / bg : 0;
      for (let ch = 0; ch < 3; ch++) {
        raw[o + ch] = Math.round((BACKGROUND[ch] ?? 0) * (1 - f) + (FOREGROUND[ch] ?? 0) * f);
      }
      raw[o + 3] = Math.round((255 * bg) / n);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array()),
  ]);
}

// "any" icons: a rounded tile. Maskable: full bleed, and the glyph inside the central 80 %
// circle that every launcher mask keeps.
writeFileSync(`${OUT}icon-192.png`, png(192, { corner: 0.2, glyphRadius: 0.32 }));
writeFileSync(`${OUT}icon-512.png`, png(512, { corner: 0.2, glyphRadius: 0.32 }));
writeFileSync(`${OUT}maskable-512.png`, png(512, { corner: 0, glyphRadius: 0.26 }));
writeFileSync(`${OUT}apple-touch-icon-180.png`, png(180, { corner: 0, glyphRadius: 0.3 }));
process.stdout.write(`icons written to ${OUT}\n`);
