// Calendar days as integers (days since 1970-01-01), so that history arithmetic is exact and
// independent of the machine's time zone. The ERP's dates and timestamps carry no zone.

const MS_PER_DAY = 86_400_000;

/** The calendar day of a Date, read in UTC (a YYYY-MM-DD string parses to UTC midnight). */
export function dayOf(date: Date): number {
  return Math.floor(date.getTime() / MS_PER_DAY);
}

/** Today in the machine's local calendar, as a day number. */
export function localToday(now = new Date()): number {
  return Math.floor(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()) / MS_PER_DAY);
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
