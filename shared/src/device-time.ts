// The window a device's clock is believed in (docs/sync.md, "The device's clock"). A phone's
// clock is the representative's: usually right, sometimes minutes off, and now and then years off
// (a battery run flat resets it to 1999, a date set by hand says 2099). A time a device sends as a
// fact of the field (a visit's check-in and check-out; a funnel card's times) is taken as sent
// only inside the window, judged by the server's clock:
//
// - up to DEVICE_TIME_PAST_DAYS before it: a phone may stay offline for weeks and push what it
//   queued then, each item with the time it happened;
// - up to DEVICE_TIME_FUTURE_MINUTES after it: a few minutes of clock skew, nothing more, since
//   nothing that already happened can be in the future.
//
// Outside it the time is never refused (a refusal would block the representative, who cannot
// mend the phone's past clock): the server's time takes its place and the device's is kept,
// marked (`aparelho`). The server decides with its own clock (the phone has no measure of the
// server's clock to judge its own by: it sends what it read, and adopts the server's answer).

/** How far back a device's time is believed: a phone offline for weeks still dates its work. */
export const DEVICE_TIME_PAST_DAYS = 60;
/** How far ahead a device's time is believed: clock skew, a few minutes. */
export const DEVICE_TIME_FUTURE_MINUTES = 5;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Why a device's time was not taken: before the window, after it, or not a time at all. */
export type DeviceTimeOutside = 'passado' | 'futuro' | 'ilegivel';

export interface DeviceTime {
  /** The time to keep: the device's inside the window, else the server's. */
  at: Date;
  /** The device's own time when it was replaced (null: taken as sent, or unreadable). */
  aparelho: Date | null;
  /** Why it was replaced; null when taken as sent. */
  fora: DeviceTimeOutside | null;
}

/** The first and the last instant a device's time is believed at, by the server's clock `now`. */
export function deviceTimeWindow(now: Date): { from: Date; to: Date } {
  return {
    from: new Date(now.getTime() - DEVICE_TIME_PAST_DAYS * DAY_MS),
    to: new Date(now.getTime() + DEVICE_TIME_FUTURE_MINUTES * MINUTE_MS),
  };
}

/** Where a time stands against the window: null inside it, else which side (or unreadable). */
export function deviceTimeOutside(sent: string | Date | null | undefined, now: Date): DeviceTimeOutside | null {
  const t = sent === null || sent === undefined ? Number.NaN : new Date(sent).getTime();
  if (!Number.isFinite(t)) return 'ilegivel';
  const { from, to } = deviceTimeWindow(now);
  if (t < from.getTime()) return 'passado';
  if (t > to.getTime()) return 'futuro';
  return null;
}

/**
 * The time to keep for one a device sent: the device's inside the window, else `now` (the
 * server's clock), with the device's own kept in `aparelho`.
 */
export function boundDeviceTime(sent: string | Date | null | undefined, now: Date): DeviceTime {
  const fora = deviceTimeOutside(sent, now);
  if (fora === null) return { at: new Date(sent as string | Date), aparelho: null, fora: null };
  const device = fora === 'ilegivel' ? null : new Date(sent as string | Date);
  return { at: new Date(now.getTime()), aparelho: device, fora };
}
