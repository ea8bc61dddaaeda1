import { describe, expect, it } from 'vitest';
import { UUID_PATTERN, isUuid } from '../src/index.js';

describe('isUuid', () => {
  it.each([
    '00000000-0000-0000-0000-000000000000',
    '123e4567-e89b-12d3-a456-426614174000',
    '123E4567-E89B-12D3-A456-426614174000',
    // any version and variant: ids minted outside the platform pass
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '01890a5d-ac96-774b-bcce-b302099a8057',
  ])('accepts %s', (value) => {
    expect(isUuid(value)).toBe(true);
  });

  it.each([
    '',
    'not-a-uuid',
    '../../etc/passwd',
    '123e4567e89b12d3a456426614174000',
    '{123e4567-e89b-12d3-a456-426614174000}',
    ' 123e4567-e89b-12d3-a456-426614174000',
    '123e4567-e89b-12d3-a456-426614174000\n',
    '123e4567-e89b-12d3-a456-42661417400',
    '123e4567-e89b-12d3-a456-4266141740000',
    'g23e4567-e89b-12d3-a456-426614174000',
  ])('refuses %j', (value) => {
    expect(isUuid(value)).toBe(false);
  });

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 42, {}, ['123e4567-e89b-12d3-a456-426614174000']]) {
      expect(isUuid(value)).toBe(false);
    }
  });

  it('is the pattern it exports', () => {
    expect(UUID_PATTERN.test('123e4567-e89b-12d3-a456-426614174000')).toBe(true);
    expect(UUID_PATTERN.flags).toBe('i');
  });
});
