// A product's photo in a box of fixed size, so nothing moves when it arrives: the thumbnail in
// the catalog list and the cart, the large photo on the product page. Only a box that comes
// into view asks for its photo (data/photos.ts: the device's copy, else the server's); a
// product with no image, a photo the server cannot give, or one that fails to decode shows the
// placeholder, never a broken picture.
import { useEffect, useRef, useState } from 'preact/hooks';
import { loadPhoto, type PhotoProduct, type PhotoSize } from '../data/photos.ts';
import './product-photo.css';

/** How far outside the screen a box starts loading: the next rows are ready when scrolled to. */
const AHEAD = '200px';

/**
 * `decorative`: the product's name is already beside it (a list row, a cart line), so a screen
 * reader skips the photo instead of reading "Foto de …" before every name.
 */
export function ProductPhoto(props: { product: PhotoProduct; size: PhotoSize; name: string; decorative?: boolean }) {
  const { id, image } = props.product;
  const box = useRef<HTMLSpanElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    setUrl(null);
    setFailed(false);
    const el = box.current;
    if (!image || !el) return;
    const ctl = new AbortController();
    let made: string | null = null;
    const load = () => {
      loadPhoto({ id, image }, props.size, ctl.signal).then(
        (blob) => {
          if (ctl.signal.aborted) return;
          if (!blob) return setFailed(true);
          made = URL.createObjectURL(blob);
          setUrl(made);
        },
        () => !ctl.signal.aborted && setFailed(true),
      );
    };
    const seen = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        seen.disconnect();
        load();
      },
      { rootMargin: AHEAD },
    );
    seen.observe(el);
    return () => {
      seen.disconnect();
      ctl.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [id, image, props.size]);

  const shown = url && !failed;
  return (
    <span
      ref={box}
      class={`product-photo product-photo-${props.size}`}
      data-photo={!image || failed ? 'none' : shown ? 'loaded' : 'loading'}
      aria-hidden={props.decorative ? 'true' : undefined}
    >
      {shown ? (
        <img
          src={url}
          alt={props.decorative ? '' : `Foto de ${props.name}`}
          decoding="async"
          onError={() => setFailed(true)}
        />
      ) : !image || failed ? (
        <svg role="img" aria-label="Sem foto" viewBox="0 0 24 24" class="product-photo-none">
          <title>Sem foto</title>
          {/* A camera, drawn thin: it says "no picture" without looking like an error. */}
          <path
            d="M4 7h3l2-2h6l2 2h3v12H4z"
            fill="none"
            stroke="currentColor"
            stroke-width="1.5"
            stroke-linejoin="round"
          />
          <circle cx="12" cy="13" r="3.5" fill="none" stroke="currentColor" stroke-width="1.5" />
        </svg>
      ) : null}
    </span>
  );
}
