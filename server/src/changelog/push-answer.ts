// What a push answers (RxDB protocol; docs/sync.md "Push"). RxDB treats every returned
// document as a conflict: it fires conflict$ and runs the conflict handler. So a push answers
// only the documents whose server state differs from what the device sent in a way the device
// cannot know by itself: a refusal and its reason, a merge with another device's edit, numbers
// and names the server assigned, a deletion that won. Timestamps the server stamps on every
// write are not such a difference: they reach the device by pull, like every accepted write.
import type { SyncPushRow, SyncRefusal } from '@campo/shared';
import type { ZodError } from 'zod';

/** Keys compared in neither document, at any depth (server clocks), per collection. */
export type ServerStamps = readonly string[];

function canonical(value: unknown, stamps: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => canonical(v, stamps));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    // An absent refusal and a cleared one are the same state.
    if (stamps.has(key) || v === undefined || (key === 'recusa' && v === null)) continue;
    out[key] = canonical(v, stamps);
  }
  return out;
}

/** Whether the device must be told of `master` (see above). */
export function differsFromPushed(master: unknown, row: SyncPushRow, stamps: ServerStamps): boolean {
  const set = new Set(stamps);
  return JSON.stringify(canonical(master, set)) !== JSON.stringify(canonical(row.newDocumentState, set));
}

/** The masters the device must adopt, in push order. */
export function answerOf<T>(rows: readonly SyncPushRow[], masters: readonly (T | null)[], stamps: ServerStamps): T[] {
  return masters.filter((m, i): m is T => m !== null && differsFromPushed(m, rows[i] as SyncPushRow, stamps));
}

/** A validation failure as one refusal the representative can read. */
export function validationRefusal(error: ZodError, campos?: Record<string, unknown>): SyncRefusal {
  const details = error.issues.map((i) => `${i.path.map(String).join('.') || 'documento'}: ${i.message}`);
  return { code: 'VALIDATION', message: `Dados inválidos: ${details.join('; ')}.`, ...(campos ? { campos } : {}) };
}
