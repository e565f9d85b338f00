// Reading the API from a screen of the online roles (supervisor, manager, admin): the data, a
// pt-BR error, whether it is loading, and reload() after a change. A newer request aborts the
// older one, so a slow answer never overwrites a newer one.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, errorMessage } from '../api.ts';

export interface ApiState<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/** GETs `path` (nothing while it is null) whenever it changes, and on reload(). */
export function useApi<T>(path: string | null): ApiState<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (path === null) return;
    const ctrl = new AbortController();
    setLoading(true);
    setError(null);
    api<T>(path, { signal: ctrl.signal })
      .then((d) => {
        setData(d);
        setLoading(false);
      })
      .catch((err: unknown) => {
        if (ctrl.signal.aborted) return;
        setError(errorMessage(err));
        setLoading(false);
      });
    return () => ctrl.abort();
  }, [path, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}

/** The problem's per-field messages, keyed by field name (body.login → login), for a form. */
export function fieldMessages(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const errors = (err as { errors?: { path: string; message: string }[] } | null)?.errors ?? [];
  for (const e of errors) {
    const parts = e.path.split('.');
    const key = parts[1] ?? parts[0] ?? '';
    out[key] ??= e.message;
  }
  return out;
}
