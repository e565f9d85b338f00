// Small image files built byte by byte for the logo tests: real, decodable PNG, JPEG and WebP
// files, and the hostile variants an upload must refuse. Built here rather than kept as binary
// fixtures so that each test says what is in the file it sends.
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function u32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value >>> 0);
  return b;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32(data.length), typed, u32(crc32(typed))]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ihdr(width: number, height: number): Buffer {
  // 8-bit grayscale, deflate, adaptive filtering, no interlace.
  return chunk('IHDR', Buffer.concat([u32(width), u32(height), Buffer.from([8, 0, 0, 0, 0])]));
}

/**
 * A real grayscale PNG of width × height (keep it small: the pixels are all written). With
 * `size`, a tEXt comment pads the file to exactly that many bytes.
 */
export function png(width = 1, height = 1, size?: number): Buffer {
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // filter type None on each row
  const head = Buffer.concat([PNG_SIGNATURE, ihdr(width, height), chunk('IDAT', deflateSync(rows))]);
  const end = chunk('IEND', new Uint8Array());
  if (size === undefined) return Buffer.concat([head, end]);
  const keyword = Buffer.from('Comment\0', 'latin1');
  const filler = size - head.length - end.length - 12 - keyword.length;
  if (filler < 0) throw new RangeError(`a ${width}×${height} PNG cannot be as small as ${size} bytes`);
  return Buffer.concat([head, chunk('tEXt', Buffer.concat([keyword, Buffer.alloc(filler, 0x61)])), end]);
}

/** A well-formed PNG whose header claims width × height pixels (no pixel data follows). */
export function pngClaiming(width: number, height: number): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(width, height),
    chunk('IDAT', deflateSync(Buffer.alloc(0))),
    chunk('IEND', new Uint8Array()),
  ]);
}

/**
 * A baseline JPEG of one gray pixel: quantisation table, frame header, one-symbol Huffman
 * tables (DC category 0 and end-of-block, each coded "0"), and a scan of the bits 00 padded
 * with ones.
 */
export function jpeg(): Buffer {
  const marker = (code: number, body: number[]) => [
    0xff,
    code,
    ((body.length + 2) >> 8) & 0xff,
    (body.length + 2) & 0xff,
    ...body,
  ];
  const oneSymbolTable = (tableClass: number) => [tableClass, 1, ...Array(15).fill(0), 0x00];
  return Buffer.from([
    0xff,
    0xd8, // SOI
    ...marker(0xdb, [0x00, ...Array(64).fill(1)]), // DQT
    ...marker(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]), // SOF0: 8 bits, 1 × 1, one component
    ...marker(0xc4, oneSymbolTable(0x00)), // DHT, DC table 0
    ...marker(0xc4, oneSymbolTable(0x10)), // DHT, AC table 0
    ...marker(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
    0x3f,
    0xff,
    0xd9, // EOI
  ]);
}

/** A lossless WebP of one pixel (the image browsers' WebP feature tests decode). */
export function webp(): Buffer {
  return Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
}

export function gif(): Buffer {
  return Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
}

export const SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>',
);

export const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

/**
 * A decompression bomb: a PNG of width × height black pixels whose IDAT compresses to a few
 * KB (zeros deflate about 1000:1) but would take width × height bytes to decode.
 */
export function pngBomb(width: number, height: number): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(width, height),
    chunk('IDAT', deflateSync(Buffer.alloc((width + 1) * height, 0), { level: 9 })),
    chunk('IEND', new Uint8Array()),
  ]);
}
