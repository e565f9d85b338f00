// Where the phone is, for a visit's check-in and check-out (docs/visits.md): the browser's
// Geolocation API with its accuracy. A refusal, a timeout or a browser without it never stops
// the visit: it is recorded without position, and the screen says why.
import type { Position } from '@campo/shared/visits';

export type PositionResult =
  | { posicao: Position; falta: null }
  | { posicao: null; falta: 'negada' | 'indisponivel' | 'tempo' };

/** Why there is no position, for the screen. */
export const NO_POSITION: Record<Exclude<PositionResult['falta'], null>, string> = {
  negada: 'a localização foi negada neste aparelho',
  indisponivel: 'a localização não está disponível',
  tempo: 'a localização demorou demais',
};

export function currentPosition(timeoutMs = 10_000): Promise<PositionResult> {
  const geo = globalThis.navigator?.geolocation;
  if (!geo) return Promise.resolve({ posicao: null, falta: 'indisponivel' });
  return new Promise((resolve) => {
    geo.getCurrentPosition(
      (p) =>
        resolve({
          posicao: {
            latitude: p.coords.latitude,
            longitude: p.coords.longitude,
            precisao: Number.isFinite(p.coords.accuracy) ? Math.min(100_000, Math.max(0, p.coords.accuracy)) : null,
          },
          falta: null,
        }),
      (err) =>
        resolve({
          posicao: null,
          falta: err.code === err.PERMISSION_DENIED ? 'negada' : err.code === err.TIMEOUT ? 'tempo' : 'indisponivel',
        }),
      // A minute-old fix is as good at a client's door, and answers at once.
      { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 60_000 },
    );
  });
}
