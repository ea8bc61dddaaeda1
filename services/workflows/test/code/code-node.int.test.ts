import type { ServiceProcess } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeDefinition, runCodeWorkflow, startSandboxWorker } from '../support/code-workflows.js';
import { startWorkflowsHarness, type TestUser, type WorkflowsHarness } from '../support/harness.js';

// The code node through the gateway on real servers (issue 24): the in-process workflows service
// with its run worker sends each code node over Kafka to a real sandbox worker (the built image,
// PROCESS_ROLE=sandbox, one isolate at a time), and the run's answer and record show the result.
let harness: WorkflowsHarness;
let sandbox: ServiceProcess;
let owner: TestUser;

beforeAll(async () => {
  harness = await startWorkflowsHarness({ RUN_WORKER_ENABLED: 'true' });
  sandbox = await startSandboxWorker(harness, { SANDBOX_CONCURRENCY: '1' });
  owner = await harness.createUser({ name: 'codeowner' });
}, 180_000);

afterAll(async () => {
  await sandbox?.stop();
  await harness?.stop();
});

const trivial = codeDefinition({ code: 'function main() { return { ok: true } }' });

/** After a hostile run: the same sandbox worker (same pid, alive) runs the next one. */
async function nextRunSucceeds() {
  const { run } = await runCodeWorkflow(harness, owner, trivial);
  expect(run).toMatchObject({ status: 'success', outputs: { result: { ok: true } } });
  expect(() => process.kill(sandbox.pid, 0)).not.toThrow();
}

describe('a start → code → end run', () => {
  it('computes with typed inputs, returns typed values, and keeps what console printed', async () => {
    const def = codeDefinition(
      {
        code: `async function main(inputs) {
          console.log('adding', inputs.a, inputs.b);
          console.warn({ tags: inputs.tags });
          await null;
          return { sum: inputs.a + inputs.b, list: [1, 2], shout: inputs.name.toUpperCase(),
                   types: [typeof inputs.a, typeof inputs.flag, Array.isArray(inputs.tags), inputs.missing],
                   text: inputs.sentence };
        }`,
        inputs: {
          a: '{{inputs.a}}',
          b: '{{inputs.b}}',
          name: '{{inputs.name}}',
          flag: '{{inputs.flag}}',
          tags: '{{inputs.tags}}',
          missing: '{{inputs.nothing}}',
          sentence: '{{inputs.name}} has {{inputs.a}}',
        },
        timeout_ms: 2000,
      },
      {
        startInputs: [
          { name: 'a', type: 'number', required: true },
          { name: 'b', type: 'number', required: true },
          { name: 'name', type: 'string', required: true },
          { name: 'flag', type: 'boolean', required: true },
          { name: 'tags', type: 'array', required: true },
          { name: 'nothing', type: 'string', required: false },
        ],
        outputs: [
          { name: 'sum', value: '{{calc.sum}}' },
          { name: 'list', value: '{{calc.list}}' },
          { name: 'greeting', value: 'hi {{calc.shout}}, sum {{calc.sum}}' },
          { name: 'types', value: '{{calc.types}}' },
          { name: 'text', value: '{{calc.text}}' },
        ],
      },
    );
    const { run, calc } = await runCodeWorkflow(harness, owner, def, {
      a: 2,
      b: 3.5,
      name: 'ada',
      flag: true,
      tags: ['x', 'y'],
    });
    expect(run.status, JSON.stringify(run)).toBe('success');
    expect(run.outputs).toEqual({
      sum: 5.5,
      list: [1, 2],
      greeting: 'hi ADA, sum 5.5',
      types: ['number', 'boolean', true, null],
      text: 'ada has 2',
    });
    expect(calc).toMatchObject({ status: 'success', error: null });
    expect(calc.logs).toEqual({
      lines: [
        { level: 'log', text: 'adding 2 3.5' },
        { level: 'warn', text: '{"tags":["x","y"]}' },
      ],
      truncated: false,
    });
    // The node's event carries the same logs (the run's event log, which the stream replays).
    const { rows } = await harness.workflows.dependencies.pool.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM workflow_run_events WHERE run_id = $1 AND type = 'node_finished' AND data->>'node_id' = 'calc'`,
      [run.id],
    );
    expect(rows[0]?.data.logs).toEqual(calc.logs);
  });

  it('a thrown error fails the node with its name and message, no host frames', async () => {
    const def = codeDefinition({
      code: `function main() { console.error('about to fail'); throw new TypeError('bad input: ' + 42) }`,
    });
    const { run, calc } = await runCodeWorkflow(harness, owner, def);
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ node_id: 'calc', data: { reason: 'code_thrown' } });
    expect(calc.error?.message).toContain('TypeError: bad input: 42');
    expect(calc.error?.message).not.toMatch(/node_modules|\/work\/|dist\//);
    expect(calc.logs?.lines).toEqual([{ level: 'error', text: 'about to fail' }]);
  });

  it('a result that is not an object fails with not_an_object', async () => {
    const { run } = await runCodeWorkflow(
      harness,
      owner,
      codeDefinition({ code: 'function main() { return [1] }' }),
    );
    expect(run.error?.data).toMatchObject({ reason: 'code_not_an_object' });
  });
});

describe('the hostile set is refused or contained, and the next run on the same worker succeeds', () => {
  const cases: [string, string, string, string?][] = [
    ['while(true){}', 'function main() { while (true) {} }', 'code_timeout', 'timeout'],
    [
      'a 1 GiB array',
      'function main() { const a = new Array(2 ** 30).fill(0); return { n: a.length } }',
      'code_memory_limit',
    ],
    ['process.exit()', 'function main() { process.exit(1) }', 'code_thrown'],
    [
      "require('fs')",
      "function main() { return require('fs').readFileSync('/etc/passwd', 'utf8') }",
      'code_thrown',
    ],
    [
      "this.constructor.constructor('return process')()",
      "function main() { const p = this.constructor.constructor('return process')(); return { pid: p.pid } }",
      'code_thrown',
    ],
    [
      'a huge console.log loop',
      "function main() { const s = 'x'.repeat(10000); for (;;) console.log(s) }",
      'code_timeout',
      'timeout',
    ],
    [
      'a result with a cycle',
      'function main() { const a = {}; a.self = a; return a }',
      'code_not_serializable',
    ],
    ['a result with a BigInt', 'function main() { return { big: 10n } }', 'code_not_serializable'],
  ];

  it.each(cases)('%s', async (_name, code, reason, status = 'failed') => {
    // 1 s for the loops; the memory case gets 5 s, so it cannot end by time first.
    const timeout_ms = reason === 'code_memory_limit' ? 5000 : 1000;
    const { run, calc } = await runCodeWorkflow(harness, owner, codeDefinition({ code, timeout_ms }));
    // A node that timed out fails its run too (docs/workflows.md "Failure rules").
    expect(run.status, JSON.stringify(run)).toBe('failed');
    expect(calc.status).toBe(status);
    expect(calc.error?.data).toMatchObject({ reason });
    if (reason === 'code_timeout' && code.includes('console.log')) {
      expect(calc.logs?.truncated).toBe(true);
      expect(calc.logs!.lines.reduce((sum, line) => sum + line.text.length, 0)).toBeLessThanOrEqual(65_536);
    }
    await nextRunSucceeds();
  });

  it('poisoning Object.prototype in one run is invisible to the next', async () => {
    const poison = codeDefinition({
      code: `function main() { Object.prototype.polluted = 'yes'; Array.prototype.map = null; return { done: true } }`,
    });
    expect((await runCodeWorkflow(harness, owner, poison)).run.status).toBe('success');
    const probe = codeDefinition({
      code: 'function main() { return { polluted: ({}).polluted ?? null, map: typeof [].map } }',
    });
    const { run } = await runCodeWorkflow(harness, owner, probe);
    expect(run.outputs).toEqual({ result: { polluted: null, map: 'function' } });
  });
});

describe('definition checks refuse a bad code node when the workflow is saved (422 / 1001)', () => {
  const save = (data: Record<string, unknown>) =>
    harness.request('POST', '/workflows', {
      token: owner.token,
      json: { name: 'bad-code', definition: codeDefinition(data as { code: string }) },
    });
  const fieldErrors = (res: { body: { data?: unknown } }) =>
    (res.body.data as { errors: Record<string, string[]> }).errors;

  it.each([
    [
      'a missing main',
      { code: 'function helper() { return {} }' },
      'definition.nodes.1.data.code',
      /no top-level function main/,
    ],
    [
      'a syntax error',
      { code: 'function main( { return {} }' },
      'definition.nodes.1.data.code',
      /SyntaxError/,
    ],
    [
      'an unknown language',
      { code: 'def main(): pass', language: 'python' },
      'definition.nodes.1.data.language',
      /javascript/,
    ],
    [
      'oversize code',
      { code: `function main() { return {} }\n//${'x'.repeat(70_000)}` },
      'definition.nodes.1.data.code',
      /65536 bytes/,
    ],
    [
      'a time limit past 30 s',
      { code: 'function main() { return {} }', timeout_ms: 30_001 },
      'definition.nodes.1.data.timeout_ms',
      /1 to 30000/,
    ],
    ['code that is not a string', { code: 42 }, 'definition.nodes.1.data.code', /non-empty string/],
    [
      'inputs that are not templates',
      { code: 'function main() { return {} }', inputs: { a: 1 } },
      'definition.nodes.1.data.inputs.a',
      /template string/,
    ],
  ])('%s', async (_name, data, field, message) => {
    const res = await save(data);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(1001);
    expect(fieldErrors(res)[field]?.join(' ')).toMatch(message);
  });

  it('refuses the same on the ephemeral version store (POST /workflow-versions), naming nodes.<i>', async () => {
    const created = await harness.request('POST', '/workflows', {
      token: owner.token,
      json: { name: 'versioned-code', definition: trivial },
    });
    const workflowId = String((created.body.data as { id: string }).id);
    const bad = codeDefinition({ code: 'function helper() { return {} }' });
    const res = await harness.request('POST', '/workflow-versions', {
      token: owner.token,
      json: {
        workflow_id: workflowId,
        nodes: bad.nodes,
        edges: bad.edges,
        config: {},
        description: 'bad code',
      },
    });
    expect([res.status, res.body.code]).toEqual([422, 1001]);
    expect(fieldErrors(res)['nodes.1.data.code']?.join(' ')).toMatch(/no top-level function main/);
  });
});
