// Reading the API from a screen of the online roles (supervisor, manager, admin): the data, a
// pt-BR error, whether it is loading, and reload() after a change. A newer request aborts the
// older one, so a slow answer never overwrites a newer one.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { type ApiAnswer, type ApiInit, type ApiRoute, api, errorMessage, type InitParam } from '../api.ts';

export interface ApiState<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/**
 * GETs `route` with its parameters (nothing while the route is null) whenever they change, and
 * on reload(). Typed like api.GET: the answer's type is the route's, from the OpenAPI document.
 */
export function useApi<P extends ApiRoute<'get'>, I extends ApiInit<'get', P>>(
  route: P | null,
  ...init: InitParam<I>
): ApiState<ApiAnswer<'get', P, I>> {
  type T = ApiAnswer<'get', P, I>;
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(route !== null);
  const [tick, setTick] = useState(0);
  // The parameters by value: a caller builds a new options object on every render.
  const options = init[0];
  const key = route === null ? null : `${route} ${JSON.stringify(options?.params ?? null)}`;

  // `key` stands for route and options in the dependencies.
  useEffect(() => {
    if (route === null) return;
    const ctrl = new AbortController();
    setLoading(true);
    setError(null);
    // api.GET is generic over the route; `route` and `options` came typed from this hook's signature.
    const get = api.GET as (route: P, init: object) => Promise<T>;
    get(route, { ...options, signal: ctrl.signal })
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
  }, [key, tick]);

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
