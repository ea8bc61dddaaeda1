import { describe, expect, it } from 'vitest';
import { reconnectDelay } from '../src/index.js';

describe('reconnectDelay', () => {
  it('backs off exponentially and caps the delay', () => {
    expect([1, 2, 3, 4].map((n) => reconnectDelay(n))).toEqual([100, 200, 400, 800]);
    expect(reconnectDelay(30)).toBe(5000);
    expect(reconnectDelay(30, 1000)).toBe(1000);
  });
});
