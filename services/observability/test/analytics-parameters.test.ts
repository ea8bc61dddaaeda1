import { describe, expect, it } from 'vitest';
import {
  entityIdOf,
  granularityOf,
  pagingOf,
  percent,
  rangeStart,
  sortAndPage,
  timeRangeOf,
  windowOf,
  type Paging,
} from '../src/domain/analytics/parameters.js';

// The analytics request parameters (domain/analytics/parameters.ts), every branch without a
// server; routes/get-admin-observability-*.int.test.ts check the same rules over HTTP.

/** The validation error (1001) whose `data.errors` is exactly `errors`. */
const refusal = (errors: Record<string, string[]>) =>
  expect.objectContaining({ code: 1001, data: expect.objectContaining({ errors }) });

describe('time_range', () => {
  it('the four values pass as they are', () => {
    expect(['7d', '30d', '90d', 'all'].map((v) => timeRangeOf(v))).toEqual(['7d', '30d', '90d', 'all']);
  });

  it('anything else, absent and empty included, is 30d and never an error', () => {
    expect([undefined, '', '1d', '7D', ' 7d', 'ALL'].map((v) => timeRangeOf(v))).toEqual(
      Array(6).fill('30d'),
    );
  });
});

describe('granularity', () => {
  it('absent or empty: hour for 7d, day for every other range', () => {
    expect(granularityOf(undefined, '7d')).toBe('hour');
    expect(granularityOf('', '7d')).toBe('hour');
    expect(granularityOf(undefined, '30d')).toBe('day');
    expect(granularityOf('', '90d')).toBe('day');
    expect(granularityOf(undefined, 'all')).toBe('day');
  });

  it('hour and day are taken whatever the range', () => {
    expect(granularityOf('day', '7d')).toBe('day');
    expect(granularityOf('hour', 'all')).toBe('hour');
  });

  it('anything else is 1001 at HTTP 422 naming granularity', () => {
    expect(() => granularityOf('week', '7d')).toThrow(
      expect.objectContaining({ code: 1001, httpStatus: 422 }),
    );
    expect(() => granularityOf('Hour', '30d')).toThrow(refusal({ granularity: ['must be hour or day'] }));
  });
});

describe('agent / workflow ids', () => {
  const id = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

  it('a UUID passes unchanged', () => {
    expect(entityIdOf(id, 'agent_id')).toBe(id);
  });

  it('anything else is 1001 at HTTP 400 naming the parameter', () => {
    for (const bad of ['not-a-uuid', '../../etc/passwd', '', `${id}x`]) {
      expect(() => entityIdOf(bad, 'workflow_id'), bad).toThrow(
        expect.objectContaining({ code: 1001, httpStatus: 400 }),
      );
    }
    expect(() => entityIdOf('x', 'agent_id')).toThrow(refusal({ agent_id: ['must be a UUID'] }));
  });
});

describe('windows', () => {
  const now = new Date('2026-11-23T12:34:56.789Z');

  it('a range starts at the UTC hour N days back, so it is whole hourly buckets', () => {
    expect(rangeStart(7, now).toISOString()).toBe('2026-11-16T12:00:00.000Z');
    expect(rangeStart(0, new Date('2026-11-23T12:00:00.000Z')).toISOString()).toBe(
      '2026-11-23T12:00:00.000Z',
    );
  });

  it('each range has its sliding window id; all has no lower bound', () => {
    expect(windowOf('7d', now)).toEqual({ win: 1, from: new Date('2026-11-16T12:00:00.000Z') });
    expect(windowOf('30d', now)).toEqual({ win: 2, from: new Date('2026-10-24T12:00:00.000Z') });
    expect(windowOf('90d', now)).toEqual({ win: 3, from: new Date('2026-08-25T12:00:00.000Z') });
    expect(windowOf('all', now)).toEqual({ win: 4, from: null });
  });
});

describe('paging', () => {
  const keys = ['runs', 'p50'];
  const request = (over: Partial<Parameters<typeof pagingOf>[0]>) => ({
    page: 0,
    page_size: 0,
    sort_by: '',
    sort_order: '',
    ...over,
  });

  it('zero / empty fields take the defaults: page 1, 20 a page, the default key, descending', () => {
    expect(pagingOf(request({}), keys, 'runs')).toEqual({
      page: 1,
      pageSize: 20,
      sortBy: 'runs',
      descending: true,
    });
  });

  it('the bounds: page_size 1 and 100 pass, asc and desc both read', () => {
    expect(pagingOf(request({ page: 3, page_size: 1, sort_order: 'asc' }), keys, 'runs')).toEqual({
      page: 3,
      pageSize: 1,
      sortBy: 'runs',
      descending: false,
    });
    expect(
      pagingOf(request({ page_size: 100, sort_by: 'p50', sort_order: 'desc' }), keys, 'runs'),
    ).toMatchObject({
      pageSize: 100,
      sortBy: 'p50',
      descending: true,
    });
  });

  it('every bad field is named in one 1001 (HTTP 422)', () => {
    const bad = request({ page: -1, page_size: 101, sort_by: 'name', sort_order: 'up' });
    expect(() => pagingOf(bad, keys, 'runs')).toThrow(
      expect.objectContaining({ code: 1001, httpStatus: 422 }),
    );
    expect(() => pagingOf(bad, keys, 'runs')).toThrow(
      refusal({
        page: ['must be an integer from 1 to 1000000'],
        page_size: ['must be an integer from 1 to 100'],
        sort_by: ['must be one of runs, p50'],
        sort_order: ['must be asc or desc'],
      }),
    );
  });

  it('a fractional page or page size and a negative page size are refused', () => {
    expect(() => pagingOf(request({ page: 1.5, page_size: 2.5 }), keys, 'runs')).toThrow(
      refusal({
        page: ['must be an integer from 1 to 1000000'],
        page_size: ['must be an integer from 1 to 100'],
      }),
    );
    expect(() => pagingOf(request({ page_size: -1 }), keys, 'runs')).toThrow(
      refusal({ page_size: ['must be an integer from 1 to 100'] }),
    );
  });
});

describe('percent', () => {
  it('a share rounded to two decimals; nothing to share is 0, never NaN', () => {
    expect(percent(1, 3)).toBe(33.33);
    expect(percent(2, 3)).toBe(66.67);
    expect(percent(5, 5)).toBe(100);
    expect(percent(0, 0)).toBe(0);
    expect(percent(3, 0)).toBe(0);
  });
});

describe('sortAndPage', () => {
  const items = [
    { id: 'b', n: 2 },
    { id: 'a', n: 2 },
    { id: 'c', n: 5 },
    { id: 'd', n: 1 },
  ];
  const page = (over: Partial<Paging>) =>
    sortAndPage(
      items,
      { page: 1, pageSize: 10, sortBy: 'n', descending: true, ...over },
      (i) => i.n,
      (i) => i.id,
    );

  it('sorts by the key either way, ties by id ascending', () => {
    expect(page({}).items.map((i) => i.id)).toEqual(['c', 'a', 'b', 'd']);
    expect(page({ descending: false }).items.map((i) => i.id)).toEqual(['d', 'a', 'b', 'c']);
  });

  it('cuts one page and reports the total; a page past the end is empty', () => {
    expect(page({ page: 2, pageSize: 3 })).toEqual({
      items: [{ id: 'd', n: 1 }],
      total: 4,
      page: 2,
      page_size: 3,
    });
    expect(page({ page: 3, pageSize: 3 })).toMatchObject({ items: [], total: 4 });
  });

  it('leaves the input as it was', () => {
    page({});
    expect(items.map((i) => i.id)).toEqual(['b', 'a', 'c', 'd']);
  });
});
