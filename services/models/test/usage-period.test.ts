import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { periodOf, periodOfDate, periodsOverlapping } from '../src/domain/quota/usage-period.js';

// Quota periods are calendar months in the server's timezone (the process's TZ). Node reads TZ
// on every Date operation, so each test sets the zone it checks.
let savedTz: string | undefined;
beforeEach(() => {
  savedTz = process.env.TZ;
});
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe('periodOf', () => {
  it('is the calendar month in server time, not in UTC', () => {
    process.env.TZ = 'Asia/Shanghai';
    // 2026-11-30T18:00Z is already December 1st, 02:00 in Shanghai.
    const period = periodOf(new Date('2026-11-30T18:00:00Z'));
    expect(period.key).toBe('2026-12');
    expect(period.startDate).toBe('2026-12-01');
    expect(period.start.toISOString()).toBe('2026-11-30T16:00:00.000Z');
    expect(period.end.toISOString()).toBe('2026-12-31T16:00:00.000Z');
  });

  it('rolls the year over and keeps local midnights across a DST change', () => {
    process.env.TZ = 'America/New_York';
    const december = periodOf(new Date('2026-12-31T23:59:59-05:00'));
    expect([december.key, periodOf(december.end).key]).toEqual(['2026-12', '2027-01']);
    // March 2027 starts in EST (UTC-5) and ends in EDT (UTC-4).
    const march = periodOf(new Date('2027-03-15T12:00:00Z'));
    expect(march.start.toISOString()).toBe('2027-03-01T05:00:00.000Z');
    expect(march.end.toISOString()).toBe('2027-04-01T04:00:00.000Z');
  });

  it('puts the instant just before the end in the period and the end itself in the next one', () => {
    process.env.TZ = 'UTC';
    const period = periodOf(new Date('2026-02-10T00:00:00Z'));
    expect(periodOf(new Date(period.end.getTime() - 1)).key).toBe('2026-02');
    expect(periodOf(period.end).key).toBe('2026-03');
    expect(periodOfDate('2026-02-01')).toEqual(period);
  });
});

describe('periodsOverlapping', () => {
  it('lists every month touching [from, to), oldest first; none for an empty range', () => {
    process.env.TZ = 'UTC';
    const keys = (from: string, to: string) =>
      periodsOverlapping(new Date(from), new Date(to)).map((period) => period.key);
    expect(keys('2026-11-15T00:00:00Z', '2027-02-01T00:00:00Z')).toEqual(['2026-11', '2026-12', '2027-01']);
    expect(keys('2026-11-15T00:00:00Z', '2027-02-01T00:00:01Z')).toHaveLength(4);
    expect(keys('2026-11-15T00:00:00Z', '2026-11-15T00:00:00Z')).toEqual([]);
    expect(keys('2026-11-15T00:00:00Z', '2026-10-01T00:00:00Z')).toEqual([]);
  });
});
