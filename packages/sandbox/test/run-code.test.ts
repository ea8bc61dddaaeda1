import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, DEFAULT_MAX_LOG_LINES, type RunResult } from '../src/index.js';

const sandbox = createSandbox();
afterAll(() => sandbox.close());

function expectOk(result: RunResult) {
  if (!result.ok) throw new Error(`expected success, got ${result.reason}: ${result.message}`);
  return result;
}

describe('runCode: the happy path', () => {
  it('a trivial main returns typed values: numbers, strings, booleans, null, arrays, nested objects', async () => {
    const result = expectOk(
      await sandbox.runCode({
        code: `function main(inputs) {
          return { sum: inputs.a + inputs.b, name: 'x' + inputs.name, flag: true, none: null,
                   list: [1, 'two', [3]], nested: { deep: { n: 1.5 } } };
        }`,
        inputs: { a: 2, b: 40, name: 'y' },
      }),
    );
    expect(result.output).toEqual({
      sum: 42,
      name: 'xy',
      flag: true,
      none: null,
      list: [1, 'two', [3]],
      nested: { deep: { n: 1.5 } },
    });
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it('an async main is awaited inside the time limit', async () => {
    const result = expectOk(
      await sandbox.runCode({
        code: `async function main(inputs) { const v = await Promise.resolve(inputs.v); return { doubled: v * 2 }; }`,
        inputs: { v: 21 },
      }),
    );
    expect(result.output).toEqual({ doubled: 42 });
  });

  it('inputs cross as a copy: mutating them inside changes nothing outside', async () => {
    const inputs = { list: [1, 2] };
    expectOk(await sandbox.runCode({ code: `function main(i) { i.list.push(3); return {}; }`, inputs }));
    expect(inputs.list).toEqual([1, 2]);
  });

  it('console.log/info/warn/error are captured with their level, objects as JSON', async () => {
    const result = expectOk(
      await sandbox.runCode({
        code: `function main() { console.log('a', 1, { b: 2 }); console.info('i'); console.warn('w'); console.error('e'); return {}; }`,
        inputs: {},
      }),
    );
    expect(result.logs).toEqual({
      truncated: false,
      lines: [
        { level: 'log', text: 'a 1 {"b":2}' },
        { level: 'info', text: 'i' },
        { level: 'warn', text: 'w' },
        { level: 'error', text: 'e' },
      ],
    });
  });

  it('logs past the line cap are cut and say so', async () => {
    const result = expectOk(
      await sandbox.runCode({
        code: `function main() { for (let i = 0; i < 5000; i++) console.log('line ' + i); return {}; }`,
        inputs: {},
      }),
    );
    expect(result.logs.lines).toHaveLength(DEFAULT_MAX_LOG_LINES);
    expect(result.logs.lines[0]?.text).toBe('line 0');
    expect(result.logs.truncated).toBe(true);
  });

  it('refuses inputs over the byte cap before creating anything', async () => {
    const result = await sandbox.runCode({
      code: 'function main() { return {}; }',
      inputs: { big: 'x'.repeat(2_000) },
      maxInputBytes: 1_000,
    });
    expect(result).toMatchObject({ ok: false, reason: 'input_too_large' });
  });

  it('names a syntax error, a missing main and a thrown error (message only, no host frames)', async () => {
    const syntax = await sandbox.runCode({ code: 'function main( {', inputs: {} });
    expect(syntax).toMatchObject({ ok: false, reason: 'syntax_error' });

    const missing = await sandbox.runCode({ code: 'function mian() { return {}; }', inputs: {} });
    expect(missing).toMatchObject({ ok: false, reason: 'missing_main' });

    const thrown = await sandbox.runCode({
      code: `function main() { throw new TypeError('bad input'); }`,
      inputs: {},
    });
    expect(thrown).toMatchObject({ ok: false, reason: 'thrown', message: 'TypeError: bad input' });
    if (!thrown.ok) {
      expect(thrown.message).not.toMatch(/node_modules|\/work\/|isolated-vm|at /);
    }
  });
});

describe('the host process', () => {
  it('runs with --no-node-snapshot, as isolated-vm requires (vitest.config.ts passes it)', async () => {
    const { nodeSnapshotDisabled } = await import('../src/index.js');
    expect(nodeSnapshotDisabled()).toBe(true);
  });
});
