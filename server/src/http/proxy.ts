// What the proxies in front of the server say about a request, believed only as far as the
// operator trusts them (TRUST_PROXY: how many proxies append to X-Forwarded-* headers). Each such
// proxy appends what it saw of the hop before it, so the entry the outermost trusted proxy added
// is the TRUST_PROXY-th from the right; everything left of it was written by the client and may
// be forged. With no trusted proxy the headers are ignored entirely.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';

/**
 * The entry of a comma-separated X-Forwarded-* header that the outermost of `trustedHops`
 * proxies added; with fewer entries than hops, the leftmost (as Express's `trust proxy` does).
 * Undefined when no proxy is trusted or the header is empty.
 */
export function forwardedEntry(header: string | undefined, trustedHops: number): string | undefined {
  if (trustedHops <= 0) return undefined;
  const entries = (header ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  return entries[Math.max(0, entries.length - trustedHops)];
}

/**
 * Whether the client reached the site over HTTPS, as far as the server can know. `campo serve`
 * speaks plain HTTP, so only a trusted proxy can say so, through X-Forwarded-Proto.
 */
export function cameOverHttps(c: Context<AppEnv>, trustedHops: number): boolean {
  return forwardedEntry(c.req.header('x-forwarded-proto'), trustedHops)?.toLowerCase() === 'https';
}

/** A year: what the HSTS preload list asks for, and long enough to span a phone's weeks offline. */
export const DEFAULT_HSTS_MAX_AGE_SECONDS = 31_536_000;

/**
 * Strict-Transport-Security on every answer that went out over HTTPS, so a browser that once
 * reached the site safely never tries plain HTTP again (where the session token could be read).
 * Never on an answer the server cannot tell went over HTTPS: browsers ignore the header over
 * HTTP anyway, and a forged X-Forwarded-Proto must not turn it on. `maxAgeSeconds` 0: never sent
 * (the proxy sets it).
 */
export function strictTransportSecurity(opts: {
  trustProxy: number;
  maxAgeSeconds: number;
}): MiddlewareHandler<AppEnv> {
  const value = `max-age=${opts.maxAgeSeconds}; includeSubDomains`;
  return async (c, next) => {
    await next();
    if (opts.maxAgeSeconds > 0 && cameOverHttps(c, opts.trustProxy))
      c.res.headers.set('Strict-Transport-Security', value);
  };
}
