// A visit's photo (GET /visits/{id}/photo). The route needs the bearer token, so the image is
// fetched as a blob and shown from an object URL: the token never goes into a URL (logs,
// history, a copied link). A thumbnail opens the photo whole in a dialog.
import { useEffect, useRef, useState } from 'preact/hooks';
import { apiUrl, currentToken } from '../../api.ts';

async function visitPhoto(id: string, signal: AbortSignal): Promise<Blob | null> {
  const token = currentToken();
  const res = await fetch(apiUrl(`/visits/${encodeURIComponent(id)}/photo`), {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    cache: 'no-store',
    signal,
  });
  // Only an image is shown: anything else (a problem, a proxy's page) is "no photo".
  if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('image/')) {
    await res.body?.cancel();
    return null;
  }
  return res.blob();
}

export function VisitPhoto(props: { id: string; cliente: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const ctl = new AbortController();
    let made: string | null = null;
    setUrl(null);
    setFailed(false);
    visitPhoto(props.id, ctl.signal).then(
      (blob) => {
        if (ctl.signal.aborted) return;
        if (!blob) return setFailed(true);
        made = URL.createObjectURL(blob);
        setUrl(made);
      },
      () => !ctl.signal.aborted && setFailed(true),
    );
    return () => {
      ctl.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [props.id]);

  if (failed) return <span class="mg-muted">Foto indisponível</span>;
  if (!url)
    return (
      <span class="mg-muted" aria-busy="true">
        Carregando a foto…
      </span>
    );
  const label = `Foto da visita a ${props.cliente}`;
  return (
    <>
      <button
        type="button"
        class="visit-thumb"
        onClick={() => dialog.current?.showModal()}
        aria-label={`Abrir a foto da visita a ${props.cliente}`}
      >
        <img src={url} alt="" />
      </button>
      <dialog ref={dialog} class="visit-photo-dialog" aria-label={label}>
        <article>
          <img src={url} alt={label} />
          <footer>
            <button type="button" onClick={() => dialog.current?.close()}>
              Fechar
            </button>
          </footer>
        </article>
      </dialog>
    </>
  );
}
