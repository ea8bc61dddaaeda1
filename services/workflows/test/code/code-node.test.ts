import { isBusinessError } from '@platform/errors';
import { createSandbox } from '@platform/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import type { DefinitionNode } from '../../src/domain/definition-rules.js';
import { definitionErrors } from '../../src/domain/definition-rules.js';
import { planRun } from '../../src/domain/runs/engine/plan.js';
import { codeNode, type CodeRunner, type CodeRunOutcome } from '../../src/domain/runs/nodes/code.js';
import { codeNodeErrors } from '../../src/domain/runs/nodes/code-rules.js';
import { createNodeModules } from '../../src/domain/runs/nodes/index.js';
import { codeDefinition } from '../support/code-workflows.js';
import { node } from '../support/definitions.js';
import { runContext } from '../support/memory-journal.js';

// The code node's own rules and its outcomes, over the real sandbox in this process (the unit
// project runs with --no-node-snapshot); the Kafka path to the sandbox worker is tested in
// code-node.int.test.ts.
const sandbox = createSandbox();
afterAll(() => sandbox.close());

/** A CodeRunner that runs the task here (what the sandbox worker does at the other end). */
const inProcess: CodeRunner & { tasks: unknown[] } = {
  tasks: [],
  worstCaseMs: (timeoutMs) => timeoutMs + 1_000,
  async run(task) {
    this.tasks.push(task);
    const result = await sandbox.runCode({
      code: task.code,
      inputs: task.inputs,
      timeoutMs: task.timeoutMs,
      maxInputBytes: task.maxBytes,
      maxOutputBytes: task.maxBytes,
    });
    return { kind: 'result', result, attempts: 1, worker: 'here' };
  },
};

const variables = { inputs: { a: 2, list: [1, 2], name: 'ada' }, prev: { obj: { k: 'v' } } };

function execute(data: Record<string, unknown>, runner: CodeRunner | null = inProcess) {
  return codeNode(runner ? { runner } : {}).execute({
    node: node('calc', 'code', { language: 'javascript', ...data }),
    variables,
    run: runContext({ inputs: variables.inputs }),
    idempotencyKey: 'run-1:calc',
    signal: new AbortController().signal,
    emitText: async () => undefined,
  });
}

describe('code node rules (checked on save and at StartRun)', () => {
  const errors = (data: Record<string, unknown>) =>
    codeNodeErrors({ language: 'javascript', ...data }, 'definition.nodes.1');

  it('a well-formed node has none', () => {
    expect(
      errors({
        code: 'async function main(inputs) { return {} }',
        inputs: { a: '{{inputs.a}}' },
        timeout_ms: 30_000,
      }),
    ).toEqual({});
    expect(errors({ code: 'const main = (i) => ({ ...i })' })).toEqual({});
  });

  it('names the field of each problem', () => {
    expect(Object.keys(errors({ code: '' }))).toEqual(['definition.nodes.1.data.code']);
    expect(Object.keys(errors({ code: 'function main() {}', language: 'python' }))).toEqual([
      'definition.nodes.1.data.language',
    ]);
    expect(errors({ code: 'function mainly() {}' })['definition.nodes.1.data.code']?.[0]).toMatch(
      /no top-level/,
    );
    expect(errors({ code: 'function main() { return {' })['definition.nodes.1.data.code']?.[0]).toMatch(
      /SyntaxError/,
    );
    expect(errors({ code: 'function main() {}', timeout_ms: 0 })).toHaveProperty([
      'definition.nodes.1.data.timeout_ms',
    ]);
    expect(errors({ code: 'function main() {}', timeout_ms: 1.5 })).toHaveProperty([
      'definition.nodes.1.data.timeout_ms',
    ]);
    expect(errors({ code: 'function main() {}', inputs: ['x'] })).toHaveProperty([
      'definition.nodes.1.data.inputs',
    ]);
    expect(errors({ code: 'function main() {}', inputs: { 'bad name': 'x' } })).toHaveProperty([
      'definition.nodes.1.data.inputs',
    ]);
    expect(errors({ code: 'function main() {}', inputs: { n: 3 } })).toHaveProperty([
      'definition.nodes.1.data.inputs.n',
    ]);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`i${i}`, 'x']));
    expect(
      errors({ code: 'function main() {}', inputs: many })['definition.nodes.1.data.inputs']?.[0],
    ).toMatch(/100/);
  });

  it('a definition with a bad code node is refused by the save rules and by StartRun with 1001', () => {
    const def = codeDefinition({ code: 'function helper() {}' });
    expect(Object.keys(definitionErrors(def, 1_000_000))).toEqual(['definition.nodes.1.data.code']);
    let thrown: unknown;
    try {
      planRun(def, createNodeModules());
    } catch (error) {
      thrown = error;
    }
    expect(isBusinessError(thrown) && thrown.code).toBe(1001);
  });

  it('an input naming an unknown node is not runnable, like other nodes', () => {
    const def = codeDefinition({ code: 'function main() { return {} }', inputs: { x: '{{nowhere.out}}' } });
    expect(() => planRun(def, createNodeModules())).toThrow(/unknown variable \{\{nowhere\.out\}\}/);
  });
});

describe('code node outcomes', () => {
  it('renders inputs like the template node: a single reference keeps its JSON type, a missing one is null', async () => {
    const outcome = await execute({
      code: 'function main(i) { return { got: i } }',
      inputs: {
        a: '{{inputs.a}}',
        list: '{{inputs.list}}',
        obj: '{{prev.obj}}',
        text: '{{inputs.name}}!',
        none: '{{inputs.nope}}',
      },
    });
    expect(outcome).toMatchObject({
      status: 'success',
      outputs: { got: { a: 2, list: [1, 2], obj: { k: 'v' }, text: 'ada!', none: null } },
      logs: { lines: [], truncated: false },
    });
  });

  it('each sandbox failure is the node failing with a named reason', async () => {
    const cases: [string, string, string][] = [
      ['function main() { throw new Error("no") }', 'failed', 'code_thrown'],
      ['function main() { return 1 }', 'failed', 'code_not_an_object'],
      ['function main() { while (true) {} }', 'timeout', 'code_timeout'],
      ['function main() { return { b: 1n } }', 'failed', 'code_not_serializable'],
    ];
    for (const [code, status, reason] of cases) {
      const outcome = await execute({ code, timeout_ms: 200 });
      expect(outcome.status, code).toBe(status);
      expect(outcome.error?.data, code).toMatchObject({ reason });
    }
  });

  it('an output over the node bound fails output_too_large inside the sandbox', async () => {
    const outcome = await execute({ code: "function main() { return { s: 'x'.repeat(3 * 1024 * 1024) } }" });
    expect(outcome.error?.data).toMatchObject({ reason: 'code_output_too_large' });
  });

  it('logs are kept on success and on failure', async () => {
    const outcome = await execute({
      code: 'function main() { console.info("a", 1); console.error({ b: 2 }); throw 1 }',
    });
    expect(outcome.logs).toEqual({
      lines: [
        { level: 'info', text: 'a 1' },
        { level: 'error', text: '{"b":2}' },
      ],
      truncated: false,
    });
  });

  it('no sandbox answering is sandbox_unavailable with the attempts; no runner (an API process) too', async () => {
    const silent: CodeRunner = {
      worstCaseMs: () => 1,
      run: async (): Promise<CodeRunOutcome> => ({
        kind: 'unavailable',
        attempts: 2,
        message: 'nobody answered',
      }),
    };
    expect((await execute({ code: 'function main() { return {} }' }, silent)).error?.data).toEqual({
      reason: 'sandbox_unavailable',
      attempts: 2,
    });
    expect((await execute({ code: 'function main() { return {} }' }, null)).error?.data).toMatchObject({
      reason: 'sandbox_unavailable',
    });
  });

  it("the node's time limit covers both attempts and the runner's margin", () => {
    const module = codeNode({ runner: inProcess });
    const n: DefinitionNode = node('calc', 'code', { timeout_ms: 500 });
    expect(module.timeoutMs?.(n)).toBe(1_500);
    expect(codeNode({}).timeoutMs?.(node('calc', 'code', {}))).toBe(2_000);
  });
});
