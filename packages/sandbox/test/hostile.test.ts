import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSandbox, DEFAULT_MAX_LOG_BYTES, type IsolateReuse, type RunResult } from '../src/index.js';

/** Short limits keep the suite fast; the limits themselves are what is under test. */
const limits = { timeoutMs: 300 };

function failure(result: RunResult) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.output)}`);
  return result;
}

describe.each<IsolateReuse>(['per-task', 'pooled'])('hostile code, %s isolates', (reuse) => {
  const sandbox = createSandbox({ reuse });
  const run = (code: string, inputs: Record<string, unknown> = {}) =>
    sandbox.runCode({ code, inputs, ...limits });
  afterAll(() => sandbox.close());

  // After EACH hostile case the next run in the same process and sandbox must still work.
  afterEach(async () => {
    const next = await run(
      'function main(i) { return { next: i.n + 1, clean: ({}).polluted === undefined }; }',
      {
        n: 1,
      },
    );
    expect(next).toMatchObject({ ok: true, output: { next: 2, clean: true } });
  });

  it('while (true) {} is stopped by the time limit', async () => {
    const result = failure(await run('function main() { while (true) {} }'));
    expect(result.reason).toBe('timeout');
    expect(result.durationMs).toBeLessThan(2_000);
  });

  it('an async main that loops after an await is stopped too', async () => {
    expect(failure(await run('async function main() { await null; while (true) {} }')).reason).toBe(
      'timeout',
    );
  });

  it('a promise that never settles ends by the wall clock', async () => {
    expect(failure(await run('function main() { return new Promise(() => {}); }')).reason).toBe('timeout');
  });

  it('growing arrays hit the memory limit; the isolate is disposed, the host survives', async () => {
    const code = 'function main() { const a = []; while (true) a.push(new Array(100000).fill(1)); }';
    expect(failure(await run(code)).reason).toBe('memory_limit');
  });

  it('pushing towards a 1 Gi-element array hits the memory limit', async () => {
    const code = 'function main() { const a = []; for (let i = 0; i < 2 ** 30; i++) a.push(i); return {}; }';
    expect(failure(await sandbox.runCode({ code, inputs: {}, timeoutMs: 5_000 })).reason).toBe(
      'memory_limit',
    );
  });

  it('a 1 GiB typed array is refused by the memory limit', async () => {
    const result = failure(await run('function main() { return { n: new Uint8Array(2 ** 30).length }; }'));
    expect(result.reason).toBe('memory_limit');
  });

  it('process.exit() fails: process is not defined', async () => {
    const result = failure(await run('function main() { process.exit(1); }'));
    expect(result).toMatchObject({ reason: 'thrown', message: 'ReferenceError: process is not defined' });
  });

  it("require('fs') fails: require is not defined", async () => {
    const result = failure(await run("function main() { return { fs: typeof require('fs') }; }"));
    expect(result).toMatchObject({ reason: 'thrown', message: 'ReferenceError: require is not defined' });
  });

  it("this.constructor.constructor('return process')() reaches no host process", async () => {
    const result = failure(
      await run("function main() { return { p: this.constructor.constructor('return process')() }; }"),
    );
    expect(result).toMatchObject({ reason: 'thrown', message: 'ReferenceError: process is not defined' });
  });

  it('none of the host globals, timers, fetch or a filesystem exist inside', async () => {
    (globalThis as Record<string, unknown>).hostOnlyMarker = 'host';
    try {
      const result = await run(`function main() {
        const F = (function () {}).constructor;
        return { process: typeof process, require: typeof require, fetch: typeof fetch,
                 setTimeout: typeof setTimeout, setInterval: typeof setInterval, Buffer: typeof Buffer,
                 marker: typeof hostOnlyMarker, viaFunction: F('return typeof process')(),
                 globalKeys: Object.getOwnPropertyNames(globalThis).filter((k) => /process|require|fetch|marker/i.test(k)) };
      }`);
      expect(result).toMatchObject({
        ok: true,
        output: {
          process: 'undefined',
          require: 'undefined',
          fetch: 'undefined',
          setTimeout: 'undefined',
          setInterval: 'undefined',
          Buffer: 'undefined',
          marker: 'undefined',
          viaFunction: 'undefined',
          globalKeys: [],
        },
      });
    } finally {
      delete (globalThis as Record<string, unknown>).hostOnlyMarker;
    }
  });

  it('poisoning Object.prototype and JSON in one run is invisible to the next run and the host', async () => {
    const poisoned = await run(`function main() {
      Object.prototype.polluted = 'yes'; Array.prototype.push = null; JSON.stringify = () => '"lie"';
      return { a: 1 };
    }`);
    expect(poisoned).toMatchObject({ ok: true, output: { a: 1 } }); // the prelude kept its own JSON
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const next = await run(
      `function main() { return { polluted: ({}).polluted ?? null, push: typeof [].push, json: JSON.stringify({ b: 1 }) }; }`,
    );
    expect(next).toMatchObject({ ok: true, output: { polluted: null, push: 'function', json: '{"b":1}' } });
  });

  it('a huge console.log loop is bounded and ends by the time limit', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const result = failure(
      await run(`function main() { const s = 'x'.repeat(10000); for (;;) console.log(s); }`),
    );
    expect(result.reason).toBe('timeout');
    expect(result.logs.truncated).toBe(true);
    const bytes = result.logs.lines.reduce((sum, line) => sum + line.text.length, 0);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(DEFAULT_MAX_LOG_BYTES);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });

  it('a result with a cycle or a BigInt is not_serializable', async () => {
    expect(failure(await run('function main() { const a = {}; a.self = a; return a; }')).reason).toBe(
      'not_serializable',
    );
    expect(failure(await run('function main() { return { big: 10n }; }')).reason).toBe('not_serializable');
    expect(failure(await run('function main() { return { f() {} }; }')).reason).toBe('not_serializable');
  });

  it('a non-object result is not_an_object', async () => {
    for (const value of ['42', "'text'", '[1, 2]', 'null', 'undefined', 'new Map()']) {
      expect(failure(await run(`function main() { return ${value}; }`)).reason).toBe('not_an_object');
    }
  });

  it('an output over the byte cap is output_too_large', async () => {
    const result = await sandbox.runCode({
      code: "function main() { return { s: 'x'.repeat(5000) }; }",
      inputs: {},
      maxOutputBytes: 1_000,
    });
    expect(failure(result).reason).toBe('output_too_large');
  });
});
