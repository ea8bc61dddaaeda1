import { isBusinessError } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { checkDefinition, definitionErrors, MAX_REPORTED_FIELDS } from '../src/domain/definition-rules.js';
import { toWorkflowPatch } from '../src/domain/workflow-rules.js';

const LIMIT = 10_000;
const node = (id: string, extra: Record<string, unknown> = {}) => ({ id, type: 'llm', data: {}, ...extra });

describe('definition format', () => {
  it('accepts the React-Flow shape, legacy schema versions, handles and extra keys', () => {
    const definition = {
      schema_version: 0,
      nodes: [node('a', { position: { x: 1, y: -2.5 } }), node('b')],
      edges: [{ id: 'e', source: 'a', target: 'b', sourceHandle: 'out', targetHandle: null }],
      metadata: { title: 't' },
      viewport: { x: 0, y: 0, zoom: 1 },
    };
    expect(definitionErrors(definition, LIMIT)).toEqual({});
    expect(checkDefinition(definition, LIMIT)).toBe(definition);
  });

  it('names every bad field', () => {
    const errors = definitionErrors(
      {
        schema_version: '2',
        nodes: [node('a'), node('a'), { id: 'c', data: [] }, 'x'],
        edges: [
          { id: 'e', source: 'a', target: 'zz', sourceHandle: 3 },
          { source: 'a', target: 'a' },
        ],
      },
      LIMIT,
    );
    expect(Object.keys(errors).sort()).toEqual(
      [
        'definition.schema_version',
        'definition.nodes.1.id',
        'definition.nodes.2.type',
        'definition.nodes.2.data',
        'definition.nodes.3',
        'definition.edges.0.target',
        'definition.edges.0.sourceHandle',
        'definition.edges.1.id',
      ].sort(),
    );
  });

  it('refuses a definition over the byte limit as one field error', () => {
    const big = { schema_version: 2, nodes: [node('a', { data: { text: 'é'.repeat(LIMIT) } })], edges: [] };
    expect(Object.keys(definitionErrors(big, LIMIT))).toEqual(['definition']);
  });

  it('raises 422 / 1001 with the field errors', () => {
    try {
      toWorkflowPatch({ name: 'x', definition: { nodes: [], edges: [] } } as never, LIMIT);
      expect.unreachable();
    } catch (error) {
      expect(isBusinessError(error)).toBe(true);
      expect(error).toMatchObject({ code: 1001, httpStatus: 422 });
      expect(Object.keys((error as { data: { errors: object } }).data.errors)).toEqual([
        'definition.schema_version',
      ]);
    }
  });

  it('names at most MAX_REPORTED_FIELDS fields, then says how many more (a gRPC trailer holds ~64 KiB)', () => {
    const edges = Array.from({ length: 2_000 }, () => ({ id: 'e', source: 'a', target: 'b' }));
    const errors = definitionErrors({ schema_version: 2, nodes: [], edges }, 10_000_000);
    expect(Object.keys(errors)).toHaveLength(MAX_REPORTED_FIELDS + 1);
    expect(errors['definition.edges.0.source']).toEqual(['references unknown node "a"']);
    expect(errors.definition).toEqual([
      `and ${2_000 * 3 - 1 - MAX_REPORTED_FIELDS} more fields with problems (the first ${MAX_REPORTED_FIELDS} are listed)`,
    ]);
    expect(Buffer.byteLength(JSON.stringify(errors))).toBeLessThan(16_384);
  });
});
