// The window a device's clock is believed in (device-time.ts): the edges, and what replaces a
// time outside it.
import { describe, expect, it } from 'vitest';
import {
  boundDeviceTime,
  DEVICE_TIME_FUTURE_MINUTES,
  DEVICE_TIME_PAST_DAYS,
  deviceTimeOutside,
} from './device-time.ts';
import { visitMinutes } from './visits.ts';

const now = new Date('2026-03-04T15:00:00.000Z');
const minutes = (m: number) => new Date(now.getTime() + m * 60_000);

describe('the device time window', () => {
  it('takes a time inside the window as sent, up to its edges', () => {
    for (const at of [now, minutes(DEVICE_TIME_FUTURE_MINUTES), minutes(-DEVICE_TIME_PAST_DAYS * 24 * 60)]) {
      expect(boundDeviceTime(at.toISOString(), now)).toEqual({ at, aparelho: null, fora: null });
    }
  });

  it("puts the server's time in place of one outside it, keeping the device's", () => {
    const ahead = minutes(DEVICE_TIME_FUTURE_MINUTES + 1);
    expect(boundDeviceTime(ahead.toISOString(), now)).toEqual({ at: now, aparelho: ahead, fora: 'futuro' });
    const behind = minutes(-DEVICE_TIME_PAST_DAYS * 24 * 60 - 1);
    expect(boundDeviceTime(behind, now)).toEqual({ at: now, aparelho: behind, fora: 'passado' });
    expect(deviceTimeOutside('2099-06-15T12:00:00Z', now)).toBe('futuro');
    expect(deviceTimeOutside('1999-06-15T12:00:00Z', now)).toBe('passado');
    expect(boundDeviceTime('not a time', now)).toEqual({ at: now, aparelho: null, fora: 'ilegivel' });
    expect(boundDeviceTime(null, now).fora).toBe('ilegivel');
  });
});

describe('visitMinutes', () => {
  it('counts a credible visit, and nothing for an open, replaced, negative or day-long one', () => {
    expect(visitMinutes(now, minutes(20))).toBe(20);
    expect(visitMinutes(now, null)).toBeNull();
    expect(visitMinutes(now, minutes(20), false)).toBeNull();
    expect(visitMinutes(now, minutes(-5))).toBeNull();
    expect(visitMinutes(now, minutes(12 * 60))).toBe(720);
    expect(visitMinutes(now, minutes(12 * 60 + 1))).toBeNull();
    expect(visitMinutes('2026-03-04T15:00:00Z', '2099-06-15T12:00:00Z')).toBeNull();
  });
});
