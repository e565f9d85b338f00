// Business dates. A discount rule is in force on calendar days, and the day that decides is the
// company's, in Brazil: at 22:00 in São Paulo it is already tomorrow in UTC, and a rule that ends
// "today" must still hold for an order placed then. The server decides with its own clock; the
// client uses the same function only to preview.
import { z } from 'zod';

/** The time zone whose calendar decides which rules are in force. */
export const BUSINESS_TIME_ZONE = 'America/Sao_Paulo';

/**
 * Per zone, its formatter and the last minute's day. Since 1980 every zone's offset is whole
 * minutes, so all of a UTC minute falls on one day anywhere: a server asked once per order
 * formats once a minute (formatToParts took 1.5 % of the API's CPU per order).
 */
const zones = new Map<string, { format: Intl.DateTimeFormat; minute: number; day: string }>();
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1980, 0, 1);

/**
 * The calendar day, YYYY-MM-DD, that `now` falls on in the business time zone. The one "today in
 * São Paulo" of server and app (the app also calls it per order to group them by day, hence the
 * formatter kept per zone).
 */
export function businessDate(now: Date | string = new Date(), timeZone: string = BUSINESS_TIME_ZONE): string {
  const at = typeof now === 'string' ? new Date(now) : now;
  const minute = Math.floor(at.getTime() / 60_000);
  let zone = zones.get(timeZone);
  if (zone?.minute === minute) return zone.day;
  if (!zone) {
    const format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    zone = { format, minute: Number.NaN, day: '' };
    zones.set(timeZone, zone);
  }
  const parts = zone.format.formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const day = `${part('year')}-${part('month')}-${part('day')}`;
  if (at.getTime() >= WHOLE_MINUTE_OFFSETS_SINCE) {
    zone.minute = minute;
    zone.day = day;
  }
  return day;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD (2024-02-30 is not one). */
export function isIsoDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** The day after or before `date` (YYYY-MM-DD), `days` calendar days away. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export const ZIsoDate = z
  .string()
  .max(10)
  .regex(ISO_DATE, 'use o formato AAAA-MM-DD')
  .refine(isIsoDate, 'esta data não existe no calendário')
  .describe('A calendar day, YYYY-MM-DD');
