// Calendar days as integers (days since 1970-01-01), so that history arithmetic is exact and
// independent of the machine's time zone. The ERP's dates and timestamps carry no zone: they are
// its wall clock, a Brazilian one, whatever zone the machine that loads the fixture is set to.
import { BUSINESS_TIME_ZONE } from '@campo/shared';

const MS_PER_DAY = 86_400_000;

/** The calendar day of a Date, read in UTC (a YYYY-MM-DD string parses to UTC midnight). */
export function dayOf(date: Date): number {
  return Math.floor(date.getTime() / MS_PER_DAY);
}

const wallClock = new Intl.DateTimeFormat('en-US', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/**
 * `now` on the ERP's wall clock (São Paulo's): its day number and the seconds past its midnight.
 * Between 21:00 and midnight in Brazil the UTC day is already the next one; a fixture dated by
 * the machine's calendar would then hold titles due "tomorrow" that Campo, counting days in São
 * Paulo, sees as due the day after.
 */
export function erpNow(now = new Date()): { day: number; second: number } {
  const p = Object.fromEntries(wallClock.formatToParts(now).map((x) => [x.type, Number(x.value)]));
  const at = (name: string) => p[name] ?? 0;
  return {
    day: Math.floor(Date.UTC(at('year'), at('month') - 1, at('day')) / MS_PER_DAY),
    second: at('hour') * 3600 + at('minute') * 60 + at('second'),
  };
}

const isoCache = new Map<number, string>();

/** 'YYYY-MM-DD'. */
export function isoDay(day: number): string {
  let iso = isoCache.get(day);
  if (iso === undefined) {
    iso = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    isoCache.set(day, iso);
  }
  return iso;
}

/** 'YYYY-MM-DD HH:MM:SS' for a day and a number of seconds after midnight. */
export function timestamp(day: number, seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${isoDay(day)} ${pad2(h)}:${pad2(m)}:${pad2(s)}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday). */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}
