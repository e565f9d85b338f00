// A photo from the phone's camera made small enough for the server (VISIT_PHOTO_MAX_BYTES,
// 768 KiB): drawn on a canvas at most PHOTO_SIDE pixels a side and encoded as JPEG, lowering
// the quality, then the size, until it fits. A camera's 4000-pixel, 5 MB picture becomes a
// 1600-pixel one of about 300 KiB, which also spares the representative's data plan.
import { VISIT_PHOTO_MAX_BYTES } from '@campo/shared/visits';

const PHOTO_SIDE = 1600;
const QUALITIES = [0.85, 0.7, 0.55, 0.4];

function encode(bitmap: ImageBitmap, side: number, quality: number): Promise<Blob | null> {
  const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
}

/** The photo as a JPEG under the server's limit; rejects a file the browser cannot read as an image. */
export async function resizePhoto(file: Blob, maxBytes = VISIT_PHOTO_MAX_BYTES): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  try {
    for (let side = PHOTO_SIDE; side >= 400; side = Math.round(side * 0.7)) {
      for (const quality of QUALITIES) {
        const blob = await encode(bitmap, side, quality);
        if (blob && blob.size <= maxBytes) return blob;
      }
    }
  } finally {
    bitmap.close();
  }
  throw new Error('Não foi possível reduzir a foto; tire outra.');
}
