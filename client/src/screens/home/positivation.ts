// Today's positivation counted from the orders on the device: orders taken offline are not on
// the server yet, so the dashboard cannot wait for the server's figure.
import { businessDate } from '@campo/shared/dates';
import { clientsWithOrderOn } from '../../data/route.ts';
import type { OrderDoc } from '../../db/schemas.ts';

/** The São Paulo calendar day of an instant, YYYY-MM-DD (the server's days are São Paulo's). */
export const saoPauloDay = (at: Date | string): string => businessDate(at);

/**
 * Distinct clients with an order today on this device (queued, sent or accepted; not rejected
 * by the supervisor nor refused by the server), as the positivation definition counts them.
 */
export function localPositivation(orders: readonly OrderDoc[], now = new Date()): number {
  return clientsWithOrderOn(orders, saoPauloDay(now)).size;
}
