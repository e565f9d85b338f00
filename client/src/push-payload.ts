// What a push message (docs/push.md) turns into on the device. Kept out of sw.ts so it can be
// tested without a service worker.

export interface PushNotice {
  title: string;
  body: string;
  /** Same-origin app path to open on click. */
  url: string;
  tag: string | undefined;
}

const FALLBACK: PushNotice = { title: 'Campo', body: 'Você tem uma novidade.', url: '/', tag: undefined };

/**
 * Reads the JSON payload. A malformed one still shows a notification: browsers penalise a
 * push that shows nothing, and the person should know something happened.
 */
export function parsePushPayload(text: string | null | undefined): PushNotice {
  if (!text) return FALLBACK;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ...FALLBACK, body: text.slice(0, 400) };
  }
  if (!data || typeof data !== 'object') return FALLBACK;
  const d = data as Record<string, unknown>;
  return {
    title: typeof d.title === 'string' && d.title ? d.title : FALLBACK.title,
    body: typeof d.body === 'string' ? d.body : '',
    url: typeof d.url === 'string' ? d.url : '/',
    tag: typeof d.tag === 'string' && d.tag ? d.tag : undefined,
  };
}

/**
 * The absolute URL a click opens. Anything off our origin becomes the app's home: a payload
 * must not be able to send the person to another site.
 */
export function notificationTarget(url: unknown, origin: string): string {
  if (typeof url !== 'string') return `${origin}/`;
  try {
    const target = new URL(url, origin);
    return target.origin === origin ? target.href : `${origin}/`;
  } catch {
    return `${origin}/`;
  }
}
