/**
 * Quota periods: calendar months in the server's timezone (the process's TZ), like every other
 * server-time rule of the spec. A period is [start, end): from local midnight on the 1st to local
 * midnight on the 1st of the next month, so DST changes inside a month move nothing.
 */
export interface UsagePeriod {
  /** `YYYY-MM`. */
  key: string;
  /** `YYYY-MM-01`, the key of the counter row (a Postgres `date`). */
  startDate: string;
  start: Date;
  end: Date;
}

const pad = (n: number) => String(n).padStart(2, '0');

function periodAt(year: number, monthIndex: number): UsagePeriod {
  const start = new Date(year, monthIndex, 1, 0, 0, 0, 0);
  const key = `${start.getFullYear()}-${pad(start.getMonth() + 1)}`;
  return { key, startDate: `${key}-01`, start, end: new Date(year, monthIndex + 1, 1, 0, 0, 0, 0) };
}

/** The period `instant` falls in, in server time. */
export function periodOf(instant: Date): UsagePeriod {
  return periodAt(instant.getFullYear(), instant.getMonth());
}

/** The period whose counter row is keyed `YYYY-MM-DD` (the first day; any day of it works). */
export function periodOfDate(date: string): UsagePeriod {
  const [year, month] = date.split('-').map(Number) as [number, number];
  return periodAt(year, month - 1);
}

/** Every period overlapping [from, to), oldest first; empty when `to` is not after `from`. */
export function periodsOverlapping(from: Date, to: Date): UsagePeriod[] {
  const periods: UsagePeriod[] = [];
  if (to.getTime() <= from.getTime()) return periods;
  for (let period = periodOf(from); period.start.getTime() < to.getTime();) {
    periods.push(period);
    period = periodAt(period.start.getFullYear(), period.start.getMonth() + 1);
  }
  return periods;
}
