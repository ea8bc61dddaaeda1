import { isBusinessError } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import {
  MAX_DEFINITION_EDGES,
  MAX_DEFINITION_NODES,
  definitionErrors,
} from '../../src/domain/definition-rules.js';
import { inputErrors, planRun, runTimeoutSeconds } from '../../src/domain/runs/engine/plan.js';
import { createNodeModules } from '../../src/domain/runs/nodes/index.js';
import { definition, edge, linear, node } from '../support/definitions.js';

const modules = createNodeModules({});

function refusal(run: () => unknown): { key: unknown; data: Record<string, unknown> } {
  try {
    run();
  } catch (error) {
    if (!isBusinessError(error)) throw error;
    return { key: error.data?.error_key, data: error.data ?? {} };
  }
  throw new Error('expected a refusal');
}

describe('planRun', () => {
  it('orders nodes topologically, ties by definition order, with positions and handles', () => {
    const plan = planRun(
      definition(
        [
          node('end', 'end'),
          node('b', 'template', { template: 'b' }),
          node('if', 'condition', { conditions: [{ left: '1', operator: 'eq', right: '1' }] }),
          node('a', 'template', { template: 'a' }),
          node('s', 'start'),
        ],
        [
          edge('s', 'if'),
          edge('if', 'b', 'true'),
          edge('if', 'a', 'false'),
          edge('a', 'end'),
          edge('b', 'end'),
        ],
      ),
      modules,
    );
    expect(plan.nodes.map((n) => [n.id, n.position])).toEqual([
      ['s', 0],
      ['if', 1],
      ['b', 2],
      ['a', 3],
      ['end', 4],
    ]);
    expect(plan.startId).toBe('s');
    expect(plan.endIds).toEqual(['end']);
    expect(plan.nodes[1]?.outgoing.map((e) => [e.target, e.sourceHandle])).toEqual([
      ['b', 'true'],
      ['a', 'false'],
    ]);
    expect(plan.nodes[4]?.incoming.map((e) => e.source)).toEqual(['a', 'b']);
    expect(runTimeoutSeconds(plan)).toBe(300);
  });

  it('refuses a schema version below 2 or a missing one as outdated', () => {
    for (const version of [0, 1, undefined, '2']) {
      expect(refusal(() => planRun({ ...linear(), schema_version: version }, modules)).key).toBe(
        'workflow_schema_outdated',
      );
    }
  });

  it.each([
    [
      'an unknown node type',
      () =>
        definition(
          [node('s', 'start'), node('x', 'mystery'), node('e', 'end')],
          [edge('s', 'x'), edge('x', 'e')],
        ),
      'x',
      /unknown node type/,
    ],
    [
      'a node its module rejects',
      () =>
        definition(
          [node('s', 'start'), node('t', 'template'), node('e', 'end')],
          [edge('s', 't'), edge('t', 'e')],
        ),
      't',
      /data.template/,
    ],
    [
      'two start nodes',
      () =>
        definition(
          [node('s', 'start'), node('s2', 'start'), node('e', 'end')],
          [edge('s', 'e'), edge('s2', 'e')],
        ),
      's2',
      /exactly one start/,
    ],
    ['no start node', () => definition([node('e', 'end')], []), null, /exactly one start/],
    [
      'no end node',
      () => definition([node('s', 'start'), node('t', 'template', { template: '' })], [edge('s', 't')]),
      null,
      /end node/,
    ],
    [
      'a cycle',
      () =>
        definition(
          [
            node('s', 'start'),
            node('a', 'template', { template: '' }),
            node('b', 'template', { template: '' }),
            node('e', 'end'),
          ],
          [edge('s', 'a'), edge('a', 'b'), edge('b', 'a'), edge('b', 'e')],
        ),
      'a',
      /cycle/,
    ],
    [
      'an edge to nowhere',
      () => definition([node('s', 'start'), node('e', 'end')], [edge('s', 'e'), edge('s', 'ghost')]),
      's',
      /unknown node "ghost"/,
    ],
    [
      'a node the start cannot reach',
      () =>
        definition(
          [node('s', 'start'), node('lonely', 'template', { template: '' }), node('e', 'end')],
          [edge('s', 'e'), edge('lonely', 'e')],
        ),
      'lonely',
      /not reachable/,
    ],
    [
      'a template naming an unknown node',
      () =>
        definition(
          [node('s', 'start'), node('t', 'template', { template: '{{nobody.text}}' }), node('e', 'end')],
          [edge('s', 't'), edge('t', 'e')],
        ),
      't',
      /unknown variable/,
    ],
    [
      'a condition edge without a branch handle',
      () =>
        definition(
          [
            node('s', 'start'),
            node('c', 'condition', { conditions: [{ left: 'a', operator: 'empty' }] }),
            node('e', 'end'),
          ],
          [edge('s', 'c'), edge('c', 'e')],
        ),
      'c',
      /sourceHandle/,
    ],
    [
      'an edge into the start node',
      () =>
        definition(
          [node('s', 'start'), node('e', 'end'), node('t', 'template', { template: '' })],
          [edge('s', 't'), edge('t', 's'), edge('t', 'e')],
        ),
      's',
      /incoming/,
    ],
    [
      'a timeout over 3600 s',
      () => definition([node('s', 'start'), node('e', 'end')], [edge('s', 'e')], { timeout_seconds: 3601 }),
      null,
      /timeout_seconds/,
    ],
    [
      'a timeout of 0',
      () => definition([node('s', 'start'), node('e', 'end')], [edge('s', 'e')], { timeout_seconds: 0 }),
      null,
      /timeout_seconds/,
    ],
  ])('refuses %s as not runnable, naming the node', (_name, build, nodeId, reason) => {
    const { key, data } = refusal(() => planRun(build(), modules));
    expect(key).toBe('workflow_node_not_runnable');
    expect(data.node_id).toBe(nodeId);
    expect(String(data.reason)).toMatch(reason);
  });

  it('reads metadata.timeout_seconds', () => {
    const plan = planRun(
      definition([node('s', 'start'), node('e', 'end')], [edge('s', 'e')], { timeout_seconds: 3600 }),
      modules,
    );
    expect(runTimeoutSeconds(plan)).toBe(3600);
  });
});

describe('inputErrors', () => {
  const plan = planRun(
    definition(
      [
        node('s', 'start', {
          inputs: [
            { name: 'city', type: 'string', required: true },
            { name: 'days', type: 'number', required: true, default: 3 },
            { name: 'tags', type: 'array' },
            { name: 'opts', type: 'object' },
            { name: 'loud', type: 'boolean' },
          ],
        }),
        node('e', 'end'),
      ],
      [edge('s', 'e')],
    ),
    modules,
  );

  it('accepts valid inputs, defaults standing in for missing required ones', () => {
    expect(inputErrors(plan, { city: 'Oslo' })).toEqual({});
    expect(inputErrors(plan, { city: 'Oslo', days: 2, tags: [], opts: {}, loud: false, extra: 1 })).toEqual(
      {},
    );
  });

  it('names missing required inputs and wrong types', () => {
    expect(inputErrors(plan, { days: '2', tags: {}, opts: [], loud: 'yes' })).toEqual({
      'inputs.city': ['is required'],
      'inputs.days': ['must be a number'],
      'inputs.tags': ['must be an array'],
      'inputs.opts': ['must be an object'],
      'inputs.loud': ['must be a boolean'],
    });
    expect(inputErrors(plan, undefined)).toEqual({ 'inputs.city': ['is required'] });
    expect(inputErrors(plan, { city: null })).toEqual({ 'inputs.city': ['is required'] });
    expect(inputErrors(plan, [1])).toEqual({ inputs: ['must be an object'] });
  });

  it('refuses a start node whose input declaration is malformed', () => {
    const { data } = refusal(() =>
      planRun(
        definition(
          [node('s', 'start', { inputs: [{ name: '1x', type: 'date' }] }), node('e', 'end')],
          [edge('s', 'e')],
        ),
        modules,
      ),
    );
    expect(data.node_id).toBe('s');
    expect(String(data.reason)).toMatch(/name must be an identifier.*type must be one of/);
  });
});

describe('planRun: size of the graph', () => {
  /** start → m wide templates (each fed by start) → end fed by all. */
  const wide = (m: number) =>
    definition(
      [
        node('s', 'start'),
        ...Array.from({ length: m }, (_, i) => node(`t${m - i}`, 'template', { template: `{{s.x}}` })),
        node('e', 'end'),
      ],
      [
        ...Array.from({ length: m }, (_, i) => edge('s', `t${m - i}`)),
        ...Array.from({ length: m }, (_, i) => edge(`t${m - i}`, 'e')),
      ],
    );

  it('refuses more nodes or edges than the caps with 422 / 1001 naming the field, before any node check', () => {
    const nodes = wide(MAX_DEFINITION_NODES);
    let caught: unknown;
    try {
      planRun(nodes, modules);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 1001, httpStatus: 422 });
    expect((caught as { data: { errors: Record<string, string[]> } }).data.errors).toEqual({
      'definition.nodes': [
        `must have at most ${MAX_DEFINITION_NODES} nodes (has ${MAX_DEFINITION_NODES + 2})`,
      ],
    });
    const edges = definition(
      [node('s', 'start'), node('e', 'end')],
      Array.from({ length: MAX_DEFINITION_EDGES + 1 }, (_, i) => ({ ...edge('s', 'e'), id: `x${i}` })),
    );
    expect(definitionErrors(edges, Number.POSITIVE_INFINITY)).toEqual({
      'definition.edges': [
        `must have at most ${MAX_DEFINITION_EDGES} edges (has ${MAX_DEFINITION_EDGES + 1})`,
      ],
    });
  });

  it('plans the largest allowed graph in definition order among ready nodes', () => {
    const plan = planRun(wide(MAX_DEFINITION_NODES - 2), modules);
    const order = plan.nodes.map((planned) => planned.id);
    expect(order).toHaveLength(MAX_DEFINITION_NODES);
    expect(order.slice(0, 3)).toEqual(['s', `t${MAX_DEFINITION_NODES - 2}`, `t${MAX_DEFINITION_NODES - 3}`]);
    expect(order.at(-1)).toBe('e');
  });
});
