// Errors nobody caught (an exception out of an event handler, a promise nobody awaited) would
// otherwise die in a phone's console where nobody sees them. They are sent to
// POST /api/v1/client-errors with the app's version, and land in the server's logs.
// Reporting must never make things worse: it sends few (a cap per minute, each distinct
// error once), never throws, and an offline device simply loses the report.
import type { ClientError } from '@campo/shared';
import { API_BASE } from '@campo/shared/api';
import { CLIENT_ERROR_MESSAGE_MAX, CLIENT_ERROR_STACK_MAX } from '@campo/shared/client-error-limits';

export interface ErrorReportingOptions {
  /** The app build's version (vite's __APP_VERSION__). */
  version: string;
  /** Where the error events come from; default window. */
  target?: EventTarget;
  /** The screen's path; default location.pathname. */
  page?: () => string;
  /** The session's bearer token, when logged in (the server then logs the user). */
  token?: () => string | null;
  /** Sends a report; default fetch with keepalive, so a report survives the page closing. */
  send?: (report: ClientError, token: string | null) => Promise<unknown>;
  /** Reports per minute at most (default 5); the server has its own limit. */
  perMinute?: number;
  now?: () => number;
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function defaultSend(report: ClientError, token: string | null): Promise<unknown> {
  return fetch(`${API_BASE}/client-errors`, {
    method: 'POST',
    keepalive: true,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(report),
  });
}

/** What an error event or a rejection reason says, as the report's fields. */
export function describeError(kind: ClientError['kind'], event: Event): Omit<ClientError, 'appVersion' | 'page'> {
  const e = event as Event & {
    message?: string;
    error?: unknown;
    reason?: unknown;
    filename?: string;
    lineno?: number;
    colno?: number;
  };
  const cause = kind === 'error' ? e.error : e.reason;
  const message =
    cause instanceof Error ? `${cause.name}: ${cause.message}` : kind === 'error' ? e.message : String(cause);
  const stack = cause instanceof Error ? cause.stack : undefined;
  return {
    kind,
    message: cut(message || 'erro sem mensagem', CLIENT_ERROR_MESSAGE_MAX),
    ...(stack ? { stack: cut(stack, CLIENT_ERROR_STACK_MAX) } : {}),
    ...(kind === 'error' && e.filename ? { source: cut(e.filename, 500) } : {}),
    ...(kind === 'error' && typeof e.lineno === 'number' && e.lineno >= 0 ? { line: e.lineno } : {}),
    ...(kind === 'error' && typeof e.colno === 'number' && e.colno >= 0 ? { column: e.colno } : {}),
  };
}

/** Starts reporting; returns the function that stops it. */
export function installErrorReporting(options: ErrorReportingOptions): () => void {
  const target = options.target ?? window;
  const page = options.page ?? (() => location.pathname);
  const token = options.token ?? (() => null);
  const send = options.send ?? defaultSend;
  const perMinute = options.perMinute ?? 5;
  const now = options.now ?? Date.now;
  const sentAt: number[] = [];
  const seen = new Set<string>();

  const report = (kind: ClientError['kind'], event: Event) => {
    try {
      const described = describeError(kind, event);
      // The same error again (a render loop, a timer) says nothing new.
      const key = `${kind} ${described.message} ${described.source ?? ''}:${described.line ?? ''}`;
      if (seen.has(key)) return;
      const t = now();
      while (sentAt.length && t - (sentAt[0] as number) >= 60_000) sentAt.shift();
      if (sentAt.length >= perMinute) return;
      seen.add(key);
      sentAt.push(t);
      const body: ClientError = { ...described, appVersion: options.version, page: cut(page(), 500) };
      send(body, token()).catch(() => undefined);
    } catch {
      // Never let the reporter raise an error of its own.
    }
  };
  const onError = (e: Event) => report('error', e);
  const onRejection = (e: Event) => report('unhandledrejection', e);
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
