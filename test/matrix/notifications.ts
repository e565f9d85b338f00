import { createECDH, randomBytes } from 'node:crypto';
import type { MatrixCaller, MatrixCase } from './types.ts';
import { everyone } from './types.ts';

/** A subscription as a browser would send it, one endpoint per caller. */
function subscription(caller: MatrixCaller) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/matrix-${caller}-${randomBytes(8).toString('hex')}`,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

// The matrix's server runs without VAPID keys, as a server does until ops configures push:
// the key and subscribing answer 503 to every signed-in caller (the role is never the reason),
// while forgetting a device and the badge keep working. With push enabled, see
// notifications.pg.test.ts.
export const notificationMatrixCases: MatrixCase[] = [
  {
    method: 'GET',
    route: '/notifications/vapid-public-key',
    request: () => ({ path: '/notifications/vapid-public-key' }),
    expect: everyone(503),
  },
  {
    method: 'POST',
    route: '/notifications/subscriptions',
    request: (_ctx, caller) => ({ path: '/notifications/subscriptions', body: subscription(caller) }),
    expect: everyone(503),
  },
  {
    method: 'DELETE',
    route: '/notifications/subscriptions',
    request: (_ctx, caller) => ({
      path: '/notifications/subscriptions',
      body: { endpoint: subscription(caller).endpoint },
    }),
    expect: everyone(204),
  },
  {
    method: 'GET',
    route: '/notifications/pending-count',
    request: () => ({ path: '/notifications/pending-count' }),
    expect: everyone(200),
  },
];
