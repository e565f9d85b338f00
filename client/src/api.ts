import { API_BASE } from '@campo/shared';

/** URL of an API route on the server that serves this app. */
export function apiUrl(path: string): string {
  return `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
}
