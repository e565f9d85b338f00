// Who is logged in, and the one way out: logout() and a rejected token both wipe everything
// this device keeps for the user before the token goes, so the next person to pick up a
// shared phone finds nothing of the last one.
import type { Role, SessionUser } from '@campo/shared';
import { computed, signal } from '@preact/signals';
import { ApiError, api, setApiAuth } from '../api.ts';

/**
 * localStorage, not IndexedDB: the token is needed synchronously at boot to draw the right
 * shell offline, and a script that could read one could read the other, so IndexedDB buys
 * no safety; the defence is the strict Content-Security-Policy the server sends (docs/pwa.md).
 */
const STORAGE_KEY = 'campo.session';

export interface StoredSession {
  token: string;
  expiresAt: string;
  user: SessionUser;
}

function isStoredSession(v: unknown): v is StoredSession {
  if (!v || typeof v !== 'object') return false;
  const s = v as Partial<StoredSession>;
  return typeof s.token === 'string' && typeof s.expiresAt === 'string' && typeof s.user?.role === 'string';
}

function readStored(): StoredSession | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return isStoredSession(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function store(s: StoredSession | null): void {
  if (s) localStorage.setItem(STORAGE_KEY, JSON.stringify(s));
  else localStorage.removeItem(STORAGE_KEY);
  session.value = s;
}

export const session = signal<StoredSession | null>(readStored());
export const currentUser = computed<SessionUser | null>(() => session.value?.user ?? null);
export const currentRole = computed<Role | null>(() => session.value?.user.role ?? null);
/** Set when the server ended the session, so the login screen can say why. */
// Kept in sessionStorage: the wipe can happen in a request still in flight from a page the
// person then reloads, and the login screen must still say why they are out.
const ENDED_KEY = 'campo.sessao-encerrada';
function readEnded(): string | null {
  try {
    return sessionStorage.getItem(ENDED_KEY);
  } catch {
    return null;
  }
}
export const endedReason = signal<string | null>(readEnded());
endedReason.subscribe((reason) => {
  try {
    if (reason) sessionStorage.setItem(ENDED_KEY, reason);
    else sessionStorage.removeItem(ENDED_KEY);
  } catch {
    // Storage refused (private mode): the message lasts this page only.
  }
});

type Wiper = () => void | Promise<void>;
const wipers = new Set<Wiper>();

/**
 * Registers something to erase on logout or when the token is rejected (the local database,
 * queued commands, push subscription...). Returns a function that unregisters it.
 */
export function onWipe(wiper: Wiper): () => void {
  wipers.add(wiper);
  return () => wipers.delete(wiper);
}

let wiping: Promise<void> | null = null;

/** Runs every wiper (one failing does not stop the others), then forgets the token. */
async function wipe(): Promise<void> {
  // Two 401s in flight must not run the wipers twice.
  wiping ??= (async () => {
    const results = await Promise.allSettled([...wipers].map(async (w) => w()));
    for (const r of results) if (r.status === 'rejected') console.error('wipe failed', r.reason);
    store(null);
  })().finally(() => {
    wiping = null;
  });
  return wiping;
}

export async function logout(): Promise<void> {
  endedReason.value = null;
  await wipe();
}

/** `empresa`: the company chosen when the login and password open more than one. */
export async function login(loginName: string, password: string, empresa?: number): Promise<SessionUser> {
  const s = await api.POST('/auth/login', {
    body: { login: loginName, password, ...(empresa !== undefined ? { empresa } : {}) },
  });
  // A different user on this device must not see the previous one's local data.
  const previous = readStored();
  if (previous && previous.user.id !== s.user.id) await wipe();
  endedReason.value = null;
  store({ token: s.token, expiresAt: s.expiresAt, user: s.user });
  return s.user;
}

/**
 * Asks the server who the token belongs to (role or name may have changed). Offline, the
 * stored user stands: the app must open without signal.
 */
export async function refreshUser(): Promise<void> {
  const s = session.peek();
  if (!s) return;
  try {
    const user = await api.GET('/auth/me');
    if (session.peek()?.token === s.token) store({ ...s, user });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) return;
    // A 401 has already wiped through onRejected.
  }
}

setApiAuth({
  token: () => session.peek()?.token ?? null,
  onRejected: () => {
    endedReason.value = 'Sua sessão expirou ou foi encerrada. Entre de novo.';
    void wipe();
  },
});

// Another tab that logs out (or in) changes what this one may show.
addEventListener('storage', (e) => {
  if (e.key === STORAGE_KEY || e.key === null) session.value = readStored();
});
