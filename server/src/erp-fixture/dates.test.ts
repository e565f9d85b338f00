import { describe, expect, it } from 'vitest';
import { dayOf, isoDay, localToday, timestamp, weekday } from './dates.ts';

describe('calendar days', () => {
  it('round-trips a calendar date', () => {
    const day = dayOf(new Date('2025-06-15'));
    expect(isoDay(day)).toBe('2025-06-15');
    expect(isoDay(day + 17)).toBe('2025-07-02');
    expect(isoDay(dayOf(new Date('2024-02-28')) + 1)).toBe('2024-02-29');
  });

  it('knows the weekday', () => {
    expect(weekday(dayOf(new Date('2025-06-15')))).toBe(0); // a Sunday
    expect(weekday(dayOf(new Date('2025-06-16')))).toBe(1);
    expect(weekday(dayOf(new Date('1969-12-31')))).toBe(3);
  });

  it('formats a timestamp without a zone', () => {
    expect(timestamp(dayOf(new Date('2025-06-15')), 7 * 3600 + 5 * 60 + 9)).toBe('2025-06-15 07:05:09');
  });

  it('reads today from the local calendar', () => {
    const now = new Date(2025, 0, 31, 23, 59);
    expect(isoDay(localToday(now))).toBe('2025-01-31');
  });
});
