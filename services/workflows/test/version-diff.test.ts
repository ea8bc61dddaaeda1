import { describe, expect, it } from 'vitest';
import { diffVersions, jsonEqual } from '../src/domain/versions/version-diff.js';
import {
  checkVersionContent,
  composeDefinition,
  splitDefinition,
} from '../src/domain/versions/version-rules.js';

const node = (id: string, data: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'llm',
  data,
  ...extra,
});

describe('jsonEqual', () => {
  it('ignores object key order but not array order, and tells types apart', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: undefined }, {})).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
  });
});

describe('diffVersions', () => {
  it('matches nodes and edges by id; a changed edge is removed (old) and added (new)', () => {
    const from = {
      nodes: [node('a'), node('b', { k: 1, same: true }), node('gone')],
      edges: [
        { id: 'e1', source: 'a', target: 'b' },
        { id: 'e2', source: 'b', target: 'gone' },
      ],
      config: { schema_version: 2, keep: { x: 1 } },
    };
    const to = {
      nodes: [node('b', { k: 2, same: true }, { type: 'tool' }), node('a'), node('new')],
      edges: [
        { id: 'e1', source: 'a', target: 'new' },
        { id: 'e3', source: 'a', target: 'b' },
      ],
      config: { keep: { x: 1 }, schema_version: 3, added: 'y' },
    };
    const diff = diffVersions(from, to);
    expect(diff.added_nodes).toEqual([node('new')]);
    expect(diff.removed_nodes).toEqual([node('gone')]);
    expect(diff.modified_nodes).toEqual([
      {
        id: 'b',
        changes: [
          { field: 'type', from: 'llm', to: 'tool' },
          { field: 'data.k', from: 1, to: 2 },
        ],
      },
    ]);
    expect(diff.added_edges.map((e) => (e as { id: string }).id)).toEqual(['e1', 'e3']);
    expect(diff.removed_edges.map((e) => (e as { id: string }).id)).toEqual(['e1', 'e2']);
    expect(diff.config_changes).toEqual([
      { field: 'schema_version', from: 2, to: 3 },
      { field: 'added', to: 'y' },
    ]);
  });

  it('compares data as a whole when one side is not an object', () => {
    const diff = diffVersions(
      { nodes: [node('a', { x: 1 })], edges: [], config: {} },
      { nodes: [{ id: 'a', type: 'llm', data: null }], edges: [], config: {} },
    );
    expect(diff.modified_nodes).toEqual([
      { id: 'a', changes: [{ field: 'data', from: { x: 1 }, to: null }] },
    ]);
  });
});

describe('version content and definitions', () => {
  it('composes {schema_version, ...config, nodes, edges} and splits it back', () => {
    const content = { nodes: [node('a')], edges: [], config: { metadata: { m: 1 } } };
    const definition = composeDefinition(content, 1);
    expect(definition).toEqual({ schema_version: 1, metadata: { m: 1 }, nodes: [node('a')], edges: [] });
    expect(composeDefinition({ ...content, config: { schema_version: 4 } }, 1).schema_version).toBe(4);
    const body = splitDefinition(definition);
    expect(JSON.parse(body.config)).toEqual({ schema_version: 1, metadata: { m: 1 } });
    expect(JSON.parse(body.nodes)).toEqual([node('a')]);
  });

  it('checks content with the definition rules, naming the request fields', () => {
    const check = (content: Record<string, unknown>) => {
      try {
        checkVersionContent({ nodes: [], edges: [], config: {}, ...content }, '', 10_000);
        return [];
      } catch (error) {
        return Object.keys((error as { data: { errors: Record<string, string[]> } }).data.errors);
      }
    };
    expect(check({})).toEqual([]);
    expect(check({ nodes: [node('a'), node('a')] })).toEqual(['nodes.1.id']);
    expect(check({ config: { schema_version: -1 } })).toEqual(['config.schema_version']);
    expect(check({ config: { edges: [] } })).toEqual(['config.edges']);
    expect(check({ nodes: [node('a', { big: 'x'.repeat(10_000) })] })).toEqual(['nodes']);
  });
});
