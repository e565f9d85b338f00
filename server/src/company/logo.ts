// Checks an uploaded logo before it is stored and later printed on every representative's
// orders. The bytes decide, never the declared Content-Type: an SVG (which can carry script)
// or an HTML page labelled image/png must not become the company's logo. The type comes from
// the file's magic bytes (file-type), the dimensions from its header (image-size), and a
// file cut short in transit is refused by checking that it ends as its format requires. A
// visit's photo is checked the same way (inspectImage), with its own limits and refusals.
import { LOGO_MAX_BYTES, LOGO_MAX_DIMENSION, LOGO_MIME_TYPES } from '@campo/shared';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { DomainError } from '../errors.ts';

export type LogoMime = (typeof LOGO_MIME_TYPES)[number];

export interface InspectedLogo {
  mime: LogoMime;
  width: number;
  height: number;
}

const SIZE_TYPES: Record<LogoMime, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

const PNG_HEADER_BYTES = 8 + 25;

// Every PNG ends with an empty IEND chunk: length 0, type "IEND", and its fixed CRC.
const PNG_IEND = Uint8Array.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/** The refusals of an image check, worded for what the image is (a logo, a visit's photo). */
export interface ImageProblems {
  tooLarge: () => DomainError;
  unsupportedType: (detected: string | null) => DomainError;
  unreadable: () => DomainError;
  truncated: () => DomainError;
  trailingData: () => DomainError;
  dimensions: (width: number, height: number) => DomainError;
}

export interface ImageLimits {
  maxBytes: number;
  maxDimension: number;
}

export const logoProblems: ImageProblems = {
  tooLarge: () =>
    new DomainError(
      'LOGO_TOO_LARGE',
      `O logo pode ter no máximo 500 KB (${LOGO_MAX_BYTES.toLocaleString('pt-BR')} bytes).`,
      { maxBytes: LOGO_MAX_BYTES },
    ),
  unsupportedType: (detected: string | null) =>
    new DomainError(
      'LOGO_TYPE_NOT_SUPPORTED',
      `O logo precisa ser uma imagem PNG, JPEG ou WebP${detected ? ` (o arquivo enviado é ${detected})` : ''}.`,
      { accepted: [...LOGO_MIME_TYPES] },
    ),
  unreadable: () =>
    new DomainError('LOGO_UNREADABLE', 'Não foi possível ler as dimensões da imagem: o arquivo está corrompido.'),
  truncated: () =>
    new DomainError(
      'LOGO_TRUNCATED',
      'O arquivo da imagem está incompleto (cortado no envio ou na gravação). Envie o arquivo novamente.',
    ),
  trailingData: () =>
    new DomainError(
      'LOGO_TRAILING_DATA',
      'O arquivo tem dados depois do fim da imagem (um arquivo disfarçado de imagem). Exporte a imagem de novo e envie.',
    ),
  dimensions: (width: number, height: number) =>
    new DomainError(
      'LOGO_DIMENSIONS_TOO_LARGE',
      `O logo tem ${width} × ${height} pixels; o máximo é ${LOGO_MAX_DIMENSION} × ${LOGO_MAX_DIMENSION}.`,
      { width, height, maxWidth: LOGO_MAX_DIMENSION, maxHeight: LOGO_MAX_DIMENSION },
    ),
};

function endsWith(bytes: Uint8Array, tail: Uint8Array): boolean {
  if (bytes.length < tail.length) return false;
  const start = bytes.length - tail.length;
  return tail.every((b, i) => bytes[start + i] === b);
}

/** Whether the file is whole: what a transfer cut short would lack. */
function isComplete(mime: LogoMime, bytes: Uint8Array): boolean {
  switch (mime) {
    case 'image/png':
      return endsWith(bytes, PNG_IEND);
    case 'image/jpeg':
      // End Of Image marker.
      return endsWith(bytes, Uint8Array.from([0xff, 0xd9]));
    case 'image/webp': {
      // RIFF header: "RIFF", the size of what follows (little-endian), "WEBP".
      if (bytes.length < 12) return false;
      const declared = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
      return declared + 8 <= bytes.length;
    }
  }
}

function hasEndMarker(mime: LogoMime, bytes: Uint8Array): boolean {
  const marker = mime === 'image/png' ? PNG_IEND : mime === 'image/jpeg' ? Uint8Array.from([0xff, 0xd9]) : null;
  return marker !== null && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(Buffer.from(marker));
}

function isLogoMime(mime: string): mime is LogoMime {
  return (LOGO_MIME_TYPES as readonly string[]).includes(mime);
}

/** The logo's type and size, or the problem that refuses it (413, 415 or 422). */
export function inspectLogo(bytes: Uint8Array): Promise<InspectedLogo> {
  return inspectImage(bytes, { maxBytes: LOGO_MAX_BYTES, maxDimension: LOGO_MAX_DIMENSION }, logoProblems);
}

/** A PNG, JPEG or WebP image's type and size, or the problem that refuses it (413, 415 or 422). */
export async function inspectImage(
  bytes: Uint8Array,
  limits: ImageLimits,
  problems: ImageProblems,
): Promise<InspectedLogo> {
  if (bytes.length > limits.maxBytes) throw problems.tooLarge();
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !isLogoMime(detected.mime)) throw problems.unsupportedType(detected?.mime ?? null);
  const mime = detected.mime;
  // image-size reads a PNG's dimensions at fixed offsets, past the end of a file cut inside
  // its header: the signature and the whole IHDR chunk (33 bytes) must be there first.
  if (mime === 'image/png' && bytes.length < PNG_HEADER_BYTES) throw problems.unreadable();
  let width: number;
  let height: number;
  try {
    const size = imageSize(bytes);
    if (size.type !== SIZE_TYPES[mime]) throw problems.unreadable();
    width = size.width;
    height = size.height;
  } catch {
    throw problems.unreadable();
  }
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw problems.unreadable();
  }
  if (width > limits.maxDimension || height > limits.maxDimension) throw problems.dimensions(width, height);
  if (!isComplete(mime, bytes)) {
    // The end marker inside but not at the end: something rides behind the image (a polyglot:
    // an HTML page, a ZIP). Absent altogether: the transfer was cut short.
    throw hasEndMarker(mime, bytes) ? problems.trailingData() : problems.truncated();
  }
  return { mime, width, height };
}

export function toDataUrl(mime: LogoMime, bytes: Uint8Array): string {
  return `data:${mime};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}
