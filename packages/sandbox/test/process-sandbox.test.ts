import { afterAll, describe, expect, it } from 'vitest';
import { createProcessSandbox } from '../src/index.js';

// Needs the built package (dist/child-main.js): `pnpm run build` first, as in CI.
describe('createProcessSandbox: what isolated-vm cannot contain kills only the child', () => {
  const sandbox = createProcessSandbox();
  afterAll(() => sandbox.close());
  const next = async (n: number) =>
    expect(
      await sandbox.runCode({ code: 'function main(i) { return { n: i.n }; }', inputs: { n } }),
    ).toMatchObject({
      ok: true,
      output: { n },
    });

  it('a 1 Gi-element array filled by a builtin (ignores the isolate limits, aborts its process) fails the run; the next run works', async () => {
    await next(1);
    const hostPid = process.pid;
    const result = await sandbox.runCode({
      code: 'function main() { return { n: new Array(2 ** 30).fill(0).length }; }',
      inputs: {},
      timeoutMs: 300,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(['timeout', 'memory_limit']).toContain(result.reason);
    expect(process.pid).toBe(hostPid);
    await next(2);
  }, 20_000);
});

describe('createProcessSandbox: memory a builtin grows past the isolate limit', () => {
  const sandbox = createProcessSandbox();
  afterAll(() => sandbox.close());

  it('new Array(2 ** 30).fill(0) fails memory_limit (the child is stopped by its resident size) well before the time limit', async () => {
    const result = await sandbox.runCode({
      code: 'function main() { return { n: new Array(2 ** 30).fill(0).length }; }',
      inputs: {},
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({ ok: false, reason: 'memory_limit' });
    expect(result.durationMs).toBeLessThan(10_000);
    expect(
      await sandbox.runCode({ code: 'function main() { return { ok: true }; }', inputs: {} }),
    ).toMatchObject({ ok: true, output: { ok: true } });
  }, 30_000);
});

describe('createProcessSandbox: the child inherits nothing', () => {
  it('starts its child with an empty environment', async () => {
    process.env.SANDBOX_TEST_SECRET = 'kafka-password';
    const sandbox = createProcessSandbox();
    try {
      expect(await sandbox.runCode({ code: 'function main() { return {} }', inputs: {} })).toMatchObject({
        ok: true,
      });
      const { readdirSync, readFileSync } = await import('node:fs');
      const children = readdirSync('/proc').filter((entry) => {
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
        } catch {
          return false;
        }
      });
      const environments = children.map((pid) => readFileSync(`/proc/${pid}/environ`, 'utf8'));
      const child = environments.find((env) => !env.includes('VITEST'));
      expect(child).toBeDefined();
      expect(child).not.toContain('SANDBOX_TEST_SECRET');
    } finally {
      sandbox.close();
      delete process.env.SANDBOX_TEST_SECRET;
    }
  });
});
