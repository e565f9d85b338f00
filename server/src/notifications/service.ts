// Business decisions of /notifications: one registration per device, owned by whoever
// subscribed it last; the pending-approval badge counts what the caller may decide.
import { createECDH } from 'node:crypto';
import { type PushSubscriptionCreate, type PushSubscriptionSaved, toErpText } from '@campo/shared';
import { can, scopeOf, teamScope } from '../auth/authorize.ts';
import type { Db } from '../db/kysely.ts';
import { withScope } from '../db/scope.ts';
import { validationFailed } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { log } from '../log.ts';
import {
  countPendingOrders,
  DEVICES_PER_USER_MAX,
  deleteOwnSubscription,
  releaseEndpointElsewhere,
  trimDevices,
  upsertSubscription,
} from './queries.ts';
import { endpointHostAllowed } from './vapid.ts';

/** A key that is not a point on P-256 would make every encryption to this device fail. */
function isP256Point(base64url: string): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(Buffer.from(base64url, 'base64url'));
    return true;
  } catch {
    return false;
  }
}

export async function subscribe(
  db: Db,
  auth: AuthContext,
  body: PushSubscriptionCreate,
  ctx: { userAgent: string | null; endpointHosts: readonly string[] },
): Promise<{ saved: PushSubscriptionSaved; created: boolean }> {
  return withScope(db, scopeOf(auth), async (tx) => {
    if (!endpointHostAllowed(body.endpoint, ctx.endpointHosts)) {
      throw validationFailed([{ path: 'body.endpoint', message: 'não é o serviço de push de um navegador conhecido' }]);
    }
    if (!isP256Point(body.keys.p256dh)) {
      throw validationFailed([{ path: 'body.keys.p256dh', message: 'não é uma chave pública P-256 válida' }]);
    }
    // A device that was registered in another tenant (the same phone, another account) stops
    // receiving that account's notifications now: it is in other hands.
    const released = await releaseEndpointElsewhere(tx, body.endpoint);
    const row = await upsertSubscription(tx, {
      idEmpresa: auth.idEmpresa,
      login: auth.login,
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      // Only Campo reads it; the LATIN1 column cannot hold every character a header may carry.
      userAgent: ctx.userAgent ? toErpText(ctx.userAgent, 300) || null : null,
    });
    const trimmed = await trimDevices(tx, auth.idEmpresa, auth.login, DEVICES_PER_USER_MAX);
    if (released > 0 || trimmed > 0) log.info('push: device registrations replaced', { released, trimmed });
    return {
      saved: { endpoint: body.endpoint, subscribedAt: new Date(row.criadoEm).toISOString() },
      created: row.inserted,
    };
  });
}

/** Idempotent: removing a device that is not the caller's (or not registered) changes nothing. */
export async function unsubscribe(db: Db, auth: AuthContext, endpoint: string): Promise<void> {
  return withScope(db, scopeOf(auth), async (tx) => {
    await deleteOwnSubscription(tx, auth.idEmpresa, auth.login, endpoint);
  });
}

/**
 * The badge: the pending orders the caller may decide. Every representative's app polls it
 * every 30 s, and representatives decide nothing: their 0 needs no transaction.
 */
export async function pendingCount(db: Db, auth: AuthContext): Promise<number> {
  // The spec gives a caller who does not approve 0 rather than an error.
  if (!can(auth, 'orders.decide')) return 0;
  // A supervisor's team, or the whole tenant; without a supervisor code there is no team.
  const team = teamScope(auth);
  if (team === null) return 0;
  return withScope(db, scopeOf(auth), (tx) => countPendingOrders(tx, auth.idEmpresa, team.codSupervisor ?? null));
}
