import { describe, expect, it } from 'vitest';
import { checkCode, MAX_CODE_BYTES } from '../src/index.js';

describe('checkCode: the save-time definition check', () => {
  it('accepts a script with a top-level main (function, async function or const arrow)', async () => {
    expect(await checkCode({ language: 'javascript', code: 'function main(i) { return {}; }' })).toEqual([]);
    expect(await checkCode({ language: 'javascript', code: 'async function main() { return {}; }' })).toEqual(
      [],
    );
    expect(await checkCode({ language: 'javascript', code: 'const main = () => ({});' })).toEqual([]);
  });

  it('refuses an unknown language on the language field', async () => {
    const problems = await checkCode({ language: 'python', code: 'def main(): pass' });
    expect(problems).toMatchObject([{ kind: 'unknown_language', field: 'language' }]);
  });

  it('refuses oversize code', async () => {
    const code = `function main() { return {}; }\n//${'x'.repeat(MAX_CODE_BYTES)}`;
    expect(await checkCode({ language: 'javascript', code })).toMatchObject([
      { kind: 'code_too_large', field: 'code' },
    ]);
  });

  it('reports a syntax error with its line and column', async () => {
    const problems = await checkCode({ language: 'javascript', code: 'function main() {\n  return {;\n}' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: 'syntax_error', field: 'code', line: 2 });
    expect(problems[0]).toHaveProperty('column');
  });

  it('refuses code without a top-level main, including one only nested in a function', async () => {
    for (const code of ['function mian() {}', 'function outer() { function main() {} }', '']) {
      expect(await checkCode({ language: 'javascript', code })).toMatchObject([{ kind: 'missing_main' }]);
    }
  });

  it('never runs the code it checks', async () => {
    const code = 'globalThis.ran = true; while (true) {} function main() {}';
    expect(await checkCode({ language: 'javascript', code })).toEqual([]); // would hang if run
  });
});
