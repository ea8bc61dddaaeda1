/**
 * Calendar arithmetic in the server's timezone (the process's TZ): the spec runs scheduled checks
 * at server-timezone times, and "days remaining" counts calendar days in that timezone.
 */
const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of `date` in server time. */
export function localDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Whole calendar days from the server-time date of `from` to that of `to` (negative when earlier). */
export function calendarDaysBetween(from: Date, to: Date): number {
  const a = Date.UTC(from.getFullYear(), from.getMonth(), from.getDate());
  const b = Date.UTC(to.getFullYear(), to.getMonth(), to.getDate());
  return Math.round((b - a) / 86_400_000);
}

/** The next `HH:MM` in server time strictly after `now` (DST-safe: built from local fields). */
export function nextLocalTime(now: Date, hhmm: string): Date {
  const [hours, minutes] = hhmm.split(':').map(Number) as [number, number];
  const candidate = new Date(now.getFullYear(), now.getMonth(), now.getDate(), hours, minutes, 0, 0);
  if (candidate.getTime() <= now.getTime()) {
    return new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, hours, minutes, 0, 0);
  }
  return candidate;
}
