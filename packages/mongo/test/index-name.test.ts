import { describe, expect, it } from 'vitest';
import { indexName, isDuplicateKeyError } from '../src/index.js';

describe('mongo helpers', () => {
  it('derives MongoDB default index names', () => {
    expect(indexName({ userId: 1, createdAt: -1 })).toBe('userId_1_createdAt_-1');
    expect(indexName({ title: 'text' })).toBe('title_text');
  });

  it('recognizes duplicate-key errors', () => {
    expect(isDuplicateKeyError({ code: 11000 })).toBe(true);
    expect(isDuplicateKeyError(new Error('x'))).toBe(false);
    expect(isDuplicateKeyError(null)).toBe(false);
  });
});
