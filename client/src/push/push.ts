import { signal } from '@preact/signals';
import { ApiError, api } from '../api.ts';
import { currentRole, onWipe } from '../session/session.ts';
import { keyBytes } from './key.ts';

/**
 * - unsupported: this browser has no Push API (iOS outside an installed app, old browsers);
 * - disabled: the server runs without VAPID keys (503 PUSH_DISABLED);
 * - ask: permission not asked yet, the button can ask it;
 * - denied: the person blocked notifications (only the browser settings can undo it);
 * - on: subscribed and registered on the server;
 * - working: asking or registering right now.
 */
export type PushStatus = 'unsupported' | 'disabled' | 'ask' | 'denied' | 'on' | 'working';

export const pushStatus = signal<PushStatus>(initialStatus());
/** What went wrong on the last attempt, in pt-BR. */
export const pushError = signal<string | null>(null);

function supported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    'Notification' in window
  );
}

function initialStatus(): PushStatus {
  if (!supported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return 'ask';
}

/** The admin gets no push (docs/push.md): they are not in the approval chain. */
function wantsPush(): boolean {
  const role = currentRole.peek();
  return role !== null && role !== 'admin';
}

/** The app's registration, without waiting forever when no service worker runs (dev server). */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  const found = await navigator.serviceWorker.getRegistration();
  if (found?.active) return found;
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
  ]);
}

function sameKey(sub: PushSubscription, key: Uint8Array): boolean {
  const current = sub.options.applicationServerKey;
  if (!current) return false;
  const a = new Uint8Array(current);
  return a.length === key.length && a.every((b, i) => b === key[i]);
}

async function subscribe(): Promise<void> {
  const reg = await registration();
  if (!reg) throw new Error('sem service worker');
  const { publicKey } = await api.GET('/notifications/vapid-public-key');
  const key = keyBytes(publicKey);
  let sub = await reg.pushManager.getSubscription();
  // A subscription made with an older server key no longer receives anything.
  if (sub && !sameKey(sub, key)) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const { keys } = sub.toJSON();
  // Registering again is harmless and moves a shared phone to whoever is signed in now.
  await api.POST('/notifications/subscriptions', {
    body: { endpoint: sub.endpoint, keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' } },
  });
}

function explain(err: unknown): { status: PushStatus; message: string | null } {
  if (err instanceof ApiError && err.code === 'PUSH_DISABLED') return { status: 'disabled', message: null };
  if (err instanceof ApiError && err.code === 'NETWORK_ERROR')
    return { status: 'ask', message: 'Sem conexão: ative as notificações quando tiver sinal.' };
  if (err instanceof ApiError) return { status: 'ask', message: err.detail ?? err.title };
  return { status: 'ask', message: 'O navegador não conseguiu ativar as notificações. Tente de novo mais tarde.' };
}

/**
 * Asks the server whether it sends notifications at all, so that a server without VAPID keys
 * is explained before anyone clicks (and gives permission) for nothing. Network failures say
 * nothing: the button stays and explains itself when used.
 */
export async function probePush(): Promise<void> {
  if (!supported() || pushStatus.peek() !== 'ask') return;
  try {
    await api.GET('/notifications/vapid-public-key');
  } catch (err) {
    if (err instanceof ApiError && err.code === 'PUSH_DISABLED' && pushStatus.peek() === 'ask')
      pushStatus.value = 'disabled';
  }
}

/** Asks permission (call it from a click: browsers refuse a prompt without a gesture) and subscribes. */
export async function enablePush(): Promise<void> {
  if (!supported()) {
    pushStatus.value = 'unsupported';
    return;
  }
  pushError.value = null;
  pushStatus.value = 'working';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    pushStatus.value = permission === 'denied' ? 'denied' : 'ask';
    return;
  }
  try {
    await subscribe();
    pushStatus.value = 'on';
  } catch (err) {
    const { status, message } = explain(err);
    pushStatus.value = status;
    pushError.value = message;
  }
}

/**
 * After login (and at each start): when notifications were already allowed, make sure this
 * device is registered for the person signed in now. Never prompts.
 */
export async function startPush(): Promise<void> {
  if (!supported() || !wantsPush()) return;
  if (Notification.permission !== 'granted') {
    pushStatus.value = Notification.permission === 'denied' ? 'denied' : 'ask';
    return;
  }
  try {
    await subscribe();
    pushStatus.value = 'on';
  } catch (err) {
    // Offline start or push disabled: stay quiet, the button says what it can.
    pushStatus.value = explain(err).status;
  }
}

onWipe(async () => {
  if (!supported()) return;
  const reg = await navigator.serviceWorker.getRegistration();
  const sub = await reg?.pushManager.getSubscription();
  pushStatus.value = initialStatus();
  pushError.value = null;
  if (!sub) return;
  // The server first, while the token is still good; the browser's side goes either way.
  await api.DELETE('/notifications/subscriptions', { body: { endpoint: sub.endpoint } }).catch(() => undefined);
  await sub.unsubscribe().catch(() => false);
});
