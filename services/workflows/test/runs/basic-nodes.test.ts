import { describe, expect, it } from 'vitest';
import type { DefinitionNode } from '../../src/domain/definition-rules.js';
import type { NodeModule } from '../../src/domain/runs/engine/contract.js';
import { renderText, renderValue } from '../../src/domain/runs/engine/variables.js';
import { conditionNode } from '../../src/domain/runs/nodes/condition.js';
import { endNode } from '../../src/domain/runs/nodes/end.js';
import { startNode } from '../../src/domain/runs/nodes/start.js';
import { templateNode } from '../../src/domain/runs/nodes/template.js';
import { definition, node } from '../support/definitions.js';
import { runContext } from '../support/memory-journal.js';

const variables = {
  inputs: { city: 'Oslo', days: 3, tags: ['a', 'b'] },
  fetch: { status: 200, body: { temp: 21.5, list: [{ n: 'x' }] } },
  'node.with.dots': { text: 'dotted' },
};

function run(module: NodeModule, n: DefinitionNode, inputs: Record<string, unknown> = {}) {
  return module.execute({
    node: n,
    variables,
    run: runContext({ inputs }),
    idempotencyKey: 'run-1:x',
    signal: new AbortController().signal,
    emitText: async () => undefined,
  });
}

describe('variables', () => {
  it('renders inputs, node outputs, nested paths, array indexes and dotted node ids', () => {
    expect(
      renderText(
        '{{ inputs.city }} {{fetch.body.temp}} {{fetch.body.list.0.n}} {{node.with.dots.text}}',
        variables,
      ),
    ).toBe('Oslo 21.5 x dotted');
    expect(renderText('{{inputs.tags}} {{fetch.body}}', variables)).toBe(
      '["a","b"] {"temp":21.5,"list":[{"n":"x"}]}',
    );
  });

  it('renders a missing value as the empty string', () => {
    expect(renderText('[{{inputs.nope}}][{{fetch.body.temp.deeper}}][{{skipped.text}}]', variables)).toBe(
      '[][][]',
    );
  });

  it('keeps the type of a whole {{path}} value, rendering leaves of objects', () => {
    expect(renderValue('{{fetch.body}}', variables)).toEqual(variables.fetch.body);
    expect(renderValue({ a: ['{{inputs.days}}', 'd={{inputs.days}}'], b: 1 }, variables)).toEqual({
      a: [3, 'd=3'],
      b: 1,
    });
  });
});

describe('start', () => {
  const start = node('s', 'start', {
    inputs: [
      { name: 'city', type: 'string', required: true },
      { name: 'days', type: 'number', default: 7 },
    ],
  });
  it('outputs the inputs with defaults', async () => {
    expect(await run(startNode, start, { city: 'Rome' })).toEqual({
      status: 'success',
      outputs: { city: 'Rome', days: 7 },
    });
    expect(await run(startNode, start, { city: 'Rome', days: 2 })).toEqual({
      status: 'success',
      outputs: { city: 'Rome', days: 2 },
    });
  });
  it('refuses a default of the wrong type', () => {
    expect(
      startNode.check(
        node('s', 'start', { inputs: [{ name: 'd', type: 'number', default: 'x' }] }),
        definition([], []),
      ),
    ).toEqual(['data.inputs.0.default must be a number']);
  });
});

describe('end', () => {
  it('declares outputs from variables and text', async () => {
    const end = node('e', 'end', {
      outputs: [
        { name: 'body', value: '{{fetch.body}}' },
        { name: 'line', value: 'In {{inputs.city}}' },
        { name: 'plain', value: 'x' },
      ],
    });
    expect(await run(endNode, end)).toEqual({
      status: 'success',
      outputs: { body: variables.fetch.body, line: 'In Oslo', plain: 'x' },
    });
  });
  it('refuses duplicate names and unknown variables', () => {
    const defn = definition([node('fetch', 'probe')], []);
    expect(
      endNode.check(
        node('e', 'end', {
          outputs: [
            { name: 'a', value: '{{fetch.x}}' },
            { name: 'a', value: '{{zz.y}}' },
          ],
        }),
        defn,
      ),
    ).toEqual([
      'data.outputs.1.name "a" is declared twice',
      'data.outputs.1.value: unknown variable {{zz.y}} (use inputs.<name> or <node_id>.<output>)',
    ]);
  });
});

describe('template', () => {
  it('outputs {text}', async () => {
    expect(
      await run(templateNode, node('t', 'template', { template: '{{inputs.city}} is {{fetch.body.temp}}°' })),
    ).toEqual({
      status: 'success',
      outputs: { text: 'Oslo is 21.5°' },
    });
  });
});

describe('condition', () => {
  const cond = (conditions: unknown[], logic?: string) =>
    node('c', 'condition', { conditions, ...(logic ? { logic } : {}) });
  const branch = async (conditions: unknown[], logic?: string) =>
    (await run(conditionNode, cond(conditions, logic))).branch;

  it.each([
    ['eq', '{{inputs.days}}', '3', 'true'],
    ['eq', '{{inputs.city}}', 'oslo', 'false'],
    ['ne', '{{inputs.city}}', 'Rome', 'true'],
    ['gt', '{{fetch.body.temp}}', '20', 'true'],
    ['gte', '{{inputs.days}}', 3, 'true'],
    ['lt', '{{inputs.days}}', '3', 'false'],
    ['lte', '2.5', '{{inputs.days}}', 'true'],
    ['contains', '{{inputs.city}}', 'sl', 'true'],
    ['contains', '{{inputs.tags}}', 'b', 'true'],
    ['contains', '{{fetch.body}}', 'temp', 'true'],
    ['not_contains', '{{inputs.tags}}', 'z', 'true'],
    ['empty', '{{inputs.missing}}', undefined, 'true'],
    ['empty', '{{inputs.tags}}', undefined, 'false'],
    ['not_empty', '{{inputs.city}}', undefined, 'true'],
  ])('%s(%s, %s) takes %s', async (operator, left, right, expected) => {
    expect(await branch([{ left, operator, right }])).toBe(expected);
  });

  it('joins with and (default) or or', async () => {
    const conditions = [
      { left: '1', operator: 'eq', right: '1' },
      { left: '1', operator: 'eq', right: '2' },
    ];
    expect(await branch(conditions)).toBe('false');
    expect(await branch(conditions, 'or')).toBe('true');
  });

  it('fails the node when gt compares a non-number', async () => {
    expect(
      await run(conditionNode, cond([{ left: '{{inputs.city}}', operator: 'gt', right: '1' }])),
    ).toMatchObject({
      status: 'failed',
      error: { code: 1002, data: { reason: 'condition_not_comparable' } },
    });
  });

  it('refuses unknown operators, bad logic and edges without a branch handle', () => {
    const defn = definition([], [{ id: 'x', source: 'c', target: 'e' }]);
    expect(conditionNode.check(cond([{ left: 'a', operator: 'like' }], 'xor'), defn)).toEqual([
      'data.logic must be "and" or "or"',
      'data.conditions.0.operator must be one of eq, ne, gt, gte, lt, lte, contains, not_contains, empty, not_empty',
      'edge x must leave the condition by sourceHandle "true" or "false"',
    ]);
    expect(conditionNode.check(cond([]), definition([], []))).toEqual([
      'data.conditions must be an array of 1-100 comparisons',
    ]);
  });
});
