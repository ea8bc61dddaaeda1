import { describe, expect, it } from 'vitest';
import { calendarDaysBetween, localDate, nextLocalTime } from '../src/local-calendar.js';

// Moved with the calendar from services/apikeys (its expiry check was the first user).
const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

describe('server-time calendar of the expiry check', () => {
  it('finds the next 09:00 strictly after now', () => {
    expect(nextLocalTime(local(2030, 6, 15, 8, 59), '09:00')).toEqual(local(2030, 6, 15, 9, 0));
    expect(nextLocalTime(local(2030, 6, 15, 9, 0), '09:00')).toEqual(local(2030, 6, 16, 9, 0));
    expect(nextLocalTime(local(2030, 12, 31, 23, 0), '09:00')).toEqual(local(2031, 1, 1, 9, 0));
  });

  it('counts whole calendar days between server-time dates', () => {
    expect(calendarDaysBetween(local(2030, 6, 15, 9), local(2030, 6, 16, 8))).toBe(1);
    expect(calendarDaysBetween(local(2030, 6, 15, 9), local(2030, 6, 22, 23, 59))).toBe(7);
    expect(calendarDaysBetween(local(2030, 6, 15, 9), local(2030, 6, 15, 23))).toBe(0);
    expect(calendarDaysBetween(local(2030, 3, 25, 9), local(2030, 4, 1, 9))).toBe(7); // across DST in most zones
    expect(localDate(local(2030, 1, 2))).toBe('2030-01-02');
  });
});
