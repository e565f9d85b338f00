// A visit's photo is checked like the company's logo (company/logo.ts): its bytes decide its
// type, never the declared Content-Type, so an SVG or an HTML page labelled image/jpeg never
// becomes a photo the supervisor's browser opens; the size is bounded while the body is read.
import { VISIT_PHOTO_MAX_BYTES, VISIT_PHOTO_MAX_DIMENSION } from '@campo/shared';
import { type ImageProblems, type InspectedLogo, inspectImage } from '../company/logo.ts';
import { DomainError } from '../errors.ts';

const invalid = (detail: string) => new DomainError('VISIT_PHOTO_INVALID', detail);

export const photoProblems: ImageProblems = {
  tooLarge: () =>
    new DomainError(
      'VISIT_PHOTO_TOO_LARGE',
      `A foto pode ter no máximo 768 KB (${VISIT_PHOTO_MAX_BYTES.toLocaleString('pt-BR')} bytes).`,
      { maxBytes: VISIT_PHOTO_MAX_BYTES },
    ),
  unsupportedType: (detected) =>
    new DomainError(
      'VISIT_PHOTO_TYPE_NOT_SUPPORTED',
      `A foto precisa ser uma imagem PNG, JPEG ou WebP${detected ? ` (o arquivo enviado é ${detected})` : ''}.`,
    ),
  unreadable: () => invalid('Não foi possível ler a foto: o arquivo está corrompido.'),
  truncated: () => invalid('A foto está incompleta (cortada no envio). Envie de novo.'),
  trailingData: () => invalid('O arquivo tem dados depois do fim da imagem; tire a foto de novo.'),
  dimensions: (width, height) =>
    invalid(`A foto tem ${width} × ${height} pixels; o máximo é ${VISIT_PHOTO_MAX_DIMENSION} de cada lado.`),
};

/** The photo's type and size, or the problem that refuses it (413, 415 or 422). */
export function inspectPhoto(bytes: Uint8Array): Promise<InspectedLogo> {
  return inspectImage(
    bytes,
    { maxBytes: VISIT_PHOTO_MAX_BYTES, maxDimension: VISIT_PHOTO_MAX_DIMENSION },
    photoProblems,
  );
}
