// The service worker: precaches the app shell so the app opens with no network after one
// visit, and shows Web Push notifications (docs/push.md). API calls are never cached here:
// offline data is the RxDB store's job (client/src/db/).
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { notificationTarget, parsePushPayload } from './push-payload.ts';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every in-app path (/, /pedidos/4321, /regras) is the same single-page shell; /api and
// /api/docs are the server's and must reach it.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api(\/|$)/] }));

// The first install takes the open page at once, so it works offline after a single visit.
// Later versions wait for the page to ask (the "Atualizar" banner sends SKIP_WAITING).
clientsClaim();
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

self.addEventListener('push', (event) => {
  const notice = parsePushPayload(event.data?.text());
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      lang: 'pt-BR',
      data: { url: notice.url },
      ...(notice.tag ? { tag: notice.tag } : {}),
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = notificationTarget((event.notification.data as { url?: unknown } | null)?.url, self.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = windows.find((w) => w.url === url);
      if (same) return void (await same.focus());
      // An open app is reused: a second window of an installed PWA confuses people.
      const open = windows[0];
      if (open) {
        const moved = await open.navigate(url).catch(() => null);
        return void (await (moved ?? open).focus());
      }
      await self.clients.openWindow(url);
    })(),
  );
});
