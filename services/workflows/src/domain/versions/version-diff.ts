import type { VersionContent } from './version-rules.js';

/** One changed field: `from` absent = added, `to` absent = removed. */
export interface FieldChange {
  field: string;
  from?: unknown;
  to?: unknown;
}

export interface NodeChange {
  id: string;
  changes: FieldChange[];
}

/**
 * What changed from one version to another. Nodes and edges are matched by `id`; a node whose
 * content differs is listed in `modified_nodes` with each changed field (`type`, `position`, …,
 * and `data.<key>` one level into its data). Edges have no "modified": an edge whose id stayed but
 * whose content changed is removed (old form) and added (new form). Config changes are per
 * top-level key.
 */
export interface VersionDiff {
  added_nodes: unknown[];
  removed_nodes: unknown[];
  modified_nodes: NodeChange[];
  added_edges: unknown[];
  removed_edges: unknown[];
  config_changes: FieldChange[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Structural equality of JSON values (object key order does not matter, array order does). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => jsonEqual(item, other[index]));
  }
  const left = a as Json;
  const right = b as Json;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every(
    (key) => Object.prototype.hasOwnProperty.call(right, key) && jsonEqual(left[key], right[key]),
  );
}

/** Changes between two objects key by key; `prefix` names the fields (`data.`). */
function objectChanges(from: Json, to: Json, prefix = ''): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const key of new Set([...Object.keys(from), ...Object.keys(to)])) {
    const had = Object.prototype.hasOwnProperty.call(from, key);
    const has = Object.prototype.hasOwnProperty.call(to, key);
    if (had && has && jsonEqual(from[key], to[key])) continue;
    const change: FieldChange = { field: prefix + key };
    if (had) change.from = from[key];
    if (has) change.to = to[key];
    changes.push(change);
  }
  return changes;
}

function nodeChanges(from: Json, to: Json): FieldChange[] {
  const { data: fromData, ...fromRest } = from;
  const { data: toData, ...toRest } = to;
  const changes = objectChanges(fromRest, toRest);
  if (isObject(fromData) && isObject(toData)) changes.push(...objectChanges(fromData, toData, 'data.'));
  else if (!jsonEqual(fromData, toData)) changes.push({ field: 'data', from: fromData, to: toData });
  return changes;
}

function byId(items: unknown): Map<string, Json> {
  const map = new Map<string, Json>();
  if (!Array.isArray(items)) return map;
  for (const item of items) if (isObject(item) && typeof item.id === 'string') map.set(item.id, item);
  return map;
}

export function diffVersions(from: VersionContent, to: VersionContent): VersionDiff {
  const fromNodes = byId(from.nodes);
  const toNodes = byId(to.nodes);
  const fromEdges = byId(from.edges);
  const toEdges = byId(to.edges);
  const diff: VersionDiff = {
    added_nodes: [],
    removed_nodes: [],
    modified_nodes: [],
    added_edges: [],
    removed_edges: [],
    config_changes: [],
  };
  for (const [id, node] of toNodes) {
    const before = fromNodes.get(id);
    if (!before) diff.added_nodes.push(node);
    else {
      const changes = nodeChanges(before, node);
      if (changes.length > 0) diff.modified_nodes.push({ id, changes });
    }
  }
  for (const [id, node] of fromNodes) if (!toNodes.has(id)) diff.removed_nodes.push(node);
  for (const [id, edge] of toEdges) {
    const before = fromEdges.get(id);
    if (!before || !jsonEqual(before, edge)) diff.added_edges.push(edge);
  }
  for (const [id, edge] of fromEdges) {
    const after = toEdges.get(id);
    if (!after || !jsonEqual(edge, after)) diff.removed_edges.push(edge);
  }
  diff.config_changes = objectChanges(
    isObject(from.config) ? from.config : {},
    isObject(to.config) ? to.config : {},
  );
  return diff;
}
