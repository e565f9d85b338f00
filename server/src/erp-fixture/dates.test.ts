import { describe, expect, it } from 'vitest';
import { dayOf, erpNow, isoDay, timestamp, weekday } from './dates.ts';

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

  it("reads now on the ERP's wall clock, São Paulo's, whatever the machine's zone", () => {
    // 01:30 UTC on 1 February is 22:30 on 31 January in São Paulo (UTC-3, no daylight saving).
    const late = erpNow(new Date('2025-02-01T01:30:05Z'));
    expect(isoDay(late.day)).toBe('2025-01-31');
    expect(timestamp(late.day, late.second)).toBe('2025-01-31 22:30:05');
    const morning = erpNow(new Date('2025-02-01T12:00:00Z'));
    expect(timestamp(morning.day, morning.second)).toBe('2025-02-01 09:00:00');
  });
});
