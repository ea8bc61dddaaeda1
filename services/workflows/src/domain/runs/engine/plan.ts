import { BusinessError } from '@platform/errors';
import {
  CURRENT_SCHEMA_VERSION,
  definitionCountErrors,
  definitionErrors,
  type DefinitionEdge,
  type DefinitionNode,
  type WorkflowDefinition,
} from '../../definition-rules.js';
import { codeNodesErrors } from '../nodes/code-rules.js';
import type { NodeModules } from './contract.js';
import { inputErrors, startInputs, type StartInput } from './inputs.js';

export { inputErrors, startInputs, type StartInput };

export interface PlannedEdge {
  id: string;
  source: string;
  target: string;
  /** The branch handle on the source (`true` / `false` out of a condition); null = any. */
  sourceHandle: string | null;
}

export interface PlannedNode {
  id: string;
  type: string;
  /** Place in the deterministic execution order (0 = the start node). */
  position: number;
  node: DefinitionNode;
  incoming: PlannedEdge[];
  outgoing: PlannedEdge[];
}

export interface RunPlan {
  definition: WorkflowDefinition;
  /** Topological order; ties broken by the order of `definition.nodes`. */
  nodes: PlannedNode[];
  startId: string;
  endIds: string[];
  timeoutSeconds: number;
}

export const DEFAULT_RUN_TIMEOUT_SECONDS = 300;
export const MAX_RUN_TIMEOUT_SECONDS = 3600;

const notRunnable = (nodeId: string | null, reason: string) =>
  BusinessError.named('workflow_node_not_runnable', { data: { node_id: nodeId, reason } });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks that a stored definition can run and orders it. Refusals (docs/workflows.md "Runs"):
 * `workflow_schema_outdated` below schema 2; 422 / 1001 on `definition.nodes` / `definition.edges`
 * past the node and edge caps, and on a code node's fields (code-rules.ts); `workflow_node_not_runnable` `{node_id, reason}` for
 * a malformed graph, an unknown node type, a node its module rejects, not exactly one start node,
 * no end node, a cycle, a node the start node cannot reach, or a bad `metadata.timeout_seconds`
 * (`node_id: null`).
 */
export function planRun(definition: unknown, modules: NodeModules): RunPlan {
  const version = isRecord(definition) ? definition.schema_version : undefined;
  if (typeof version !== 'number' || version < CURRENT_SCHEMA_VERSION) {
    throw BusinessError.named('workflow_schema_outdated');
  }
  // A definition stored before the node and edge caps (or written around them) is refused as
  // the save would have been, before any per-node work.
  const counts = definitionCountErrors(definition);
  if (Object.keys(counts).length > 0) throw BusinessError.validation(counts);
  // A code node's own rules are field errors (1001), as when the definition is saved.
  const code = codeNodesErrors(definition);
  if (Object.keys(code).length > 0) throw BusinessError.validation(code);
  const shape = definitionErrors(definition, Number.POSITIVE_INFINITY);
  const [field, messages] = Object.entries(shape)[0] ?? [];
  if (field !== undefined)
    throw notRunnable(shapeNodeId(definition, field), `${field}: ${messages?.join('; ')}`);
  const workflow = definition as WorkflowDefinition;
  const timeoutSeconds = readTimeout(workflow.metadata);

  for (const node of workflow.nodes) {
    const module = modules.get(node.type);
    if (!module) throw notRunnable(node.id, `unknown node type "${node.type}"`);
    const problems = module.check(node, workflow);
    if (problems.length > 0) throw notRunnable(node.id, problems.join('; '));
  }
  const starts = workflow.nodes.filter((node) => node.type === 'start');
  const start = starts[0];
  if (starts.length !== 1 || !start) {
    throw notRunnable(
      starts[1]?.id ?? null,
      `a workflow needs exactly one start node (has ${starts.length})`,
    );
  }
  const endIds = workflow.nodes.filter((node) => node.type === 'end').map((node) => node.id);
  if (endIds.length === 0) throw notRunnable(null, 'a workflow needs an end node');

  const edges = workflow.edges.map(toPlannedEdge);
  const incoming = groupBy(edges, (edge) => edge.target);
  const outgoing = groupBy(edges, (edge) => edge.source);
  if ((incoming.get(start.id) ?? []).length > 0)
    throw notRunnable(start.id, 'the start node cannot have incoming edges');
  for (const id of endIds) {
    if ((outgoing.get(id) ?? []).length > 0) throw notRunnable(id, 'an end node cannot have outgoing edges');
  }
  const order = topologicalOrder(workflow.nodes, incoming, outgoing);
  const reachable = reachableFrom(start.id, outgoing);
  const stray = workflow.nodes.find((node) => !reachable.has(node.id));
  if (stray) throw notRunnable(stray.id, 'not reachable from the start node');

  return {
    definition: workflow,
    nodes: order.map((node, position) => ({
      id: node.id,
      type: node.type,
      position,
      node,
      incoming: incoming.get(node.id) ?? [],
      outgoing: outgoing.get(node.id) ?? [],
    })),
    startId: start.id,
    endIds,
    timeoutSeconds,
  };
}

/** The run's time limit in seconds (`definition.metadata.timeout_seconds`, checked by planRun). */
export function runTimeoutSeconds(plan: RunPlan): number {
  return plan.timeoutSeconds;
}

function readTimeout(metadata: Record<string, unknown> | undefined): number {
  const value = metadata?.timeout_seconds;
  if (value === undefined || value === null) return DEFAULT_RUN_TIMEOUT_SECONDS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_RUN_TIMEOUT_SECONDS) {
    throw notRunnable(
      null,
      `metadata.timeout_seconds must be an integer from 1 to ${MAX_RUN_TIMEOUT_SECONDS}`,
    );
  }
  return value;
}

/** The node a shape error is about (`definition.nodes.3.id` → that node; an edge → its existing end). */
function shapeNodeId(definition: unknown, field: string): string | null {
  const match = /^definition\.(nodes|edges)\.(\d+)/.exec(field);
  if (!match || !isRecord(definition)) return null;
  const list = definition[match[1] ?? ''];
  const item: unknown = Array.isArray(list) ? list[Number(match[2])] : undefined;
  if (!isRecord(item)) return null;
  if (match[1] === 'nodes') return typeof item.id === 'string' ? item.id : null;
  const ids = new Set((definition.nodes as unknown[]).map((node) => (isRecord(node) ? node.id : undefined)));
  for (const end of [item.source, item.target]) if (typeof end === 'string' && ids.has(end)) return end;
  return null;
}

function toPlannedEdge(edge: DefinitionEdge): PlannedEdge {
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    sourceHandle: typeof edge.sourceHandle === 'string' ? edge.sourceHandle : null,
  };
}

function groupBy(edges: PlannedEdge[], key: (edge: PlannedEdge) => string): Map<string, PlannedEdge[]> {
  const groups = new Map<string, PlannedEdge[]>();
  for (const edge of edges) {
    const list = groups.get(key(edge)) ?? [];
    list.push(edge);
    groups.set(key(edge), list);
  }
  return groups;
}

/**
 * Kahn's algorithm, always taking the ready node that comes first in the definition: the ready
 * set is a binary heap of definition indexes, so the walk is O((nodes + edges) · log nodes).
 */
function topologicalOrder(
  nodes: DefinitionNode[],
  incoming: Map<string, PlannedEdge[]>,
  outgoing: Map<string, PlannedEdge[]>,
): DefinitionNode[] {
  const index = new Map(nodes.map((node, i) => [node.id, i]));
  const waiting = nodes.map((node) => (incoming.get(node.id) ?? []).length);
  const ready = new IndexHeap();
  waiting.forEach((count, i) => count === 0 && ready.push(i));
  const order: DefinitionNode[] = [];
  for (let next = ready.pop(); next !== undefined; next = ready.pop()) {
    const node = nodes[next] as DefinitionNode;
    order.push(node);
    for (const edge of outgoing.get(node.id) ?? []) {
      const target = index.get(edge.target) ?? 0;
      waiting[target] = (waiting[target] ?? 0) - 1;
      if (waiting[target] === 0) ready.push(target);
    }
  }
  if (order.length < nodes.length) {
    const left = nodes.filter((_node, i) => (waiting[i] ?? 0) > 0);
    throw notRunnable(cycleMember(left, outgoing)?.id ?? null, 'the node is part of a cycle');
  }
  return order;
}

/** A min-heap of non-negative integers (definition indexes). */
class IndexHeap {
  private readonly items: number[] = [];

  push(value: number): void {
    const items = this.items;
    items.push(value);
    for (let i = items.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as number) <= value) break;
      items[i] = items[parent] as number;
      items[parent] = value;
      i = parent;
    }
  }

  pop(): number | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    for (let i = 0; ;) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let smallest = i;
      if (l < items.length && (items[l] as number) < (items[smallest] as number)) smallest = l;
      if (r < items.length && (items[r] as number) < (items[smallest] as number)) smallest = r;
      if (smallest === i) break;
      [items[i], items[smallest]] = [items[smallest] as number, items[i] as number];
      i = smallest;
    }
    return top;
  }
}

/**
 * Of the nodes Kahn's walk left over, one on a cycle: trims those leading nowhere among them
 * (a reverse Kahn walk over the leftover nodes, O(nodes + edges)), then the first left in
 * definition order.
 */
function cycleMember(
  left: DefinitionNode[],
  outgoing: Map<string, PlannedEdge[]>,
): DefinitionNode | undefined {
  const remaining = new Set(left.map((node) => node.id));
  const feeders = new Map<string, string[]>();
  const onward = new Map<string, number>();
  for (const id of remaining) {
    const targets = (outgoing.get(id) ?? []).filter((edge) => remaining.has(edge.target));
    onward.set(id, targets.length);
    for (const edge of targets) {
      const list = feeders.get(edge.target);
      if (list) list.push(id);
      else feeders.set(edge.target, [id]);
    }
  }
  const deadEnds = [...remaining].filter((id) => onward.get(id) === 0);
  for (let id = deadEnds.pop(); id !== undefined; id = deadEnds.pop()) {
    remaining.delete(id);
    for (const feeder of feeders.get(id) ?? []) {
      const count = (onward.get(feeder) ?? 0) - 1;
      onward.set(feeder, count);
      if (count === 0) deadEnds.push(feeder);
    }
  }
  return left.find((node) => remaining.has(node.id));
}

function reachableFrom(startId: string, outgoing: Map<string, PlannedEdge[]>): Set<string> {
  const seen = new Set([startId]);
  const queue = [startId];
  for (let at = 0, id = queue[0]; id !== undefined; id = queue[++at]) {
    for (const edge of outgoing.get(id) ?? []) {
      if (!seen.has(edge.target)) {
        seen.add(edge.target);
        queue.push(edge.target);
      }
    }
  }
  return seen;
}
