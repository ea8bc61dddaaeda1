import { describe, expect, it } from 'vitest';
import { TIME_RANGES } from '../src/observability-sets.js';
import { translateFields } from '../src/translate-fields.js';

describe('translateFields', () => {
  it('translates the named fields, keeps every other one and the key order', () => {
    const answer = { time_range: '7d' as const, total: 3, granularity: 'hour' };
    const message = translateFields(answer, { time_range: TIME_RANGES.toProto });
    expect(message).toEqual({ time_range: TIME_RANGES.toProto('7d'), total: 3, granularity: 'hour' });
    expect(Object.keys(message)).toEqual(['time_range', 'total', 'granularity']);
    expect(answer.time_range).toBe('7d');
  });

  it('passes an absent field to its translator as undefined', () => {
    const seen: unknown[] = [];
    const message = translateFields({ id: 'a' } as { id: string; status?: number }, {
      status: (value) => {
        seen.push(value);
        return 'none';
      },
    });
    expect(seen).toEqual([undefined]);
    expect(message).toEqual({ id: 'a', status: 'none' });
  });
});
