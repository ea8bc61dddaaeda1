import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, serviceSourceFiles } from './import-graph.js';

// A message key passed by hand bypasses the catalog's pinned code and status for that key.
const HAND_BUILT_KEY = /new BusinessError\([^)]*\bmsgKey\s*:/s;

describe('house rules for services/*/src', () => {
  it('the check spots a hand-built named error', () => {
    expect(HAND_BUILT_KEY.test("new BusinessError(ErrorCode.X, { msgKey: 'token_invalid' })")).toBe(true);
    expect(HAND_BUILT_KEY.test("BusinessError.named('token_invalid')")).toBe(false);
  });

  it('every named business error comes from the catalog (BusinessError.named), none built by hand', () => {
    const offenders = serviceSourceFiles()
      .filter((file) => HAND_BUILT_KEY.test(readFileSync(file, 'utf8')))
      .map((file) => relative(repoRoot, file));
    expect(offenders).toEqual([]);
  });
});
