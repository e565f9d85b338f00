// Small per-user values kept in localStorage (the last sync time, the dashboard's last figures,
// SAC drafts): they must be readable synchronously at start-up, offline, before the RxDB store
// opens. Every key carries the user id, and logout wipes them all with the rest of the device.
import { currentUser, onWipe } from '../session/session.ts';

const PREFIX = 'campo.local.';

function keyFor(name: string): string | null {
  const user = currentUser.peek();
  return user ? `${PREFIX}u${user.id}.${name}` : null;
}

export function readLocal<T>(name: string, isValid: (v: unknown) => v is T): T | null {
  const key = keyFor(name);
  if (!key) return null;
  try {
    const raw = localStorage.getItem(key);
    const parsed: unknown = raw === null ? null : JSON.parse(raw);
    return isValid(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Best effort: a full or disabled storage must not break the screen that writes. */
export function writeLocal(name: string, value: unknown): void {
  const key = keyFor(name);
  if (!key) return;
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Quota exceeded or storage disabled: the value is simply not kept.
  }
}

onWipe(() => {
  const keys: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k?.startsWith(PREFIX)) keys.push(k);
  }
  for (const k of keys) localStorage.removeItem(k);
});
