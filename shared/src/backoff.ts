// The exponential backoff of every reconnect and retry loop (the app's change stream, the
// server's LISTEN connection, the push worker), so they all wait alike: the first delay after
// the first failure, doubled per further failure, never more than the cap.

/**
 * The wait before the next attempt after `failures` failures in a row (0: right after a success or
 * the first failure, which waits `firstMs`): firstMs * 2^failures, at most `maxMs`.
 */
export function backoffDelay(failures: number, firstMs: number, maxMs: number): number {
  // The exponent is bounded so that a long outage does not overflow to Infinity (it is capped anyway).
  return Math.min(maxMs, firstMs * 2 ** Math.min(Math.max(0, failures), 30));
}
