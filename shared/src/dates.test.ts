import { describe, expect, it } from 'vitest';
import { addDays, businessDate, isIsoDate, ZIsoDate } from './dates.ts';

describe('businessDate', () => {
  it('is the calendar day in São Paulo, not in UTC', () => {
    // 01:30 UTC on 3 May is still 22:30 on 2 May in São Paulo (UTC-3, no daylight saving since 2019).
    expect(businessDate(new Date('2025-05-03T01:30:00Z'))).toBe('2025-05-02');
    expect(businessDate(new Date('2025-05-03T03:00:00Z'))).toBe('2025-05-03');
    expect(businessDate(new Date('2025-12-31T23:59:59-03:00'))).toBe('2025-12-31');
  });

  it('follows another zone when asked', () => {
    expect(businessDate(new Date('2025-05-03T01:30:00Z'), 'UTC')).toBe('2025-05-03');
  });

  it('turns the day at midnight whatever minute it kept, zone by zone', () => {
    expect(businessDate(new Date('2025-05-03T02:59:00.000Z'))).toBe('2025-05-02');
    expect(businessDate(new Date('2025-05-03T02:59:59.999Z'))).toBe('2025-05-02');
    expect(businessDate(new Date('2025-05-03T02:59:30Z'), 'UTC')).toBe('2025-05-03');
    expect(businessDate(new Date('2025-05-03T03:00:00.000Z'))).toBe('2025-05-03');
    expect(businessDate(new Date('2025-05-02T02:59:59.999Z'))).toBe('2025-05-01');
  });

  it('reads each instant on its own before 1980, when a zone could be seconds off UTC', () => {
    // São Paulo kept its local mean time, 3:06:28 behind UTC, until 1914: its midnight fell
    // 28 seconds into a UTC minute.
    expect(businessDate(new Date('1914-01-01T03:06:27Z'))).toBe('1913-12-31');
    expect(businessDate(new Date('1914-01-01T03:06:29Z'))).toBe('1914-01-01');
  });
});

describe('ISO dates', () => {
  it('accepts real calendar days only', () => {
    for (const d of ['2024-02-29', '2025-12-31', '2025-01-01']) expect(isIsoDate(d)).toBe(true);
    for (const d of ['2025-02-29', '2025-13-01', '2025-04-31', '2025-1-1', '01/02/2025', '2025-01-01T00:00']) {
      expect(isIsoDate(d)).toBe(false);
    }
    expect(ZIsoDate.safeParse('2025-02-30').success).toBe(false);
  });

  it('adds and subtracts days across months and years', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
    expect(addDays('2025-03-01', 0)).toBe('2025-03-01');
  });
});

describe('businessDate of a stored instant', () => {
  it('reads an ISO timestamp as the same day a Date of it gives', () => {
    expect(businessDate('2026-03-10T02:30:00Z')).toBe('2026-03-09');
    expect(businessDate('2026-03-10T03:00:00Z')).toBe(businessDate(new Date('2026-03-10T03:00:00Z')));
  });
});
