import { DEFINITION_RULES } from '@platform/contracts';
import { BusinessError } from '@platform/errors';
import { codeNodesErrors } from './runs/nodes/code-rules.js';

/**
 * The definition format the canvas and the runner share (React-Flow shape; docs/workflows.md):
 * `{schema_version, nodes: [{id, type, position?, data}], edges: [{id, source, target,
 * sourceHandle?, targetHandle?}], metadata?}`. Other top-level keys (a viewport, say) are kept.
 * A definition is stored exactly as given: these rules only refuse, they never rewrite, and an
 * old `schema_version` (below 2) is accepted as is (the canvas upgrades it when it saves).
 */
export interface WorkflowDefinition {
  schema_version: number;
  nodes: DefinitionNode[];
  edges: DefinitionEdge[];
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}
export interface DefinitionNode {
  id: string;
  type: string;
  position?: { x: number; y: number };
  data: Record<string, unknown>;
  [key: string]: unknown;
}
export interface DefinitionEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
  [key: string]: unknown;
}

/** The current type-system version the canvas writes; older ones are loaded but cannot run. */
export const CURRENT_SCHEMA_VERSION = DEFINITION_RULES.currentSchemaVersion;
const MAX_ID = DEFINITION_RULES.idMaxLength;
const MAX_TYPE = DEFINITION_RULES.nodeTypeMaxLength;
/** Most nodes and edges one definition may have (docs/workflows.md "The definition format"). */
export const MAX_DEFINITION_NODES = DEFINITION_RULES.maxNodes;
export const MAX_DEFINITION_EDGES = DEFINITION_RULES.maxEdges;

type Errors = Record<string, string[]>;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const add = (errors: Errors, field: string, message: string) => (errors[field] ??= []).push(message);

function checkText(errors: Errors, field: string, value: unknown, max: number): value is string {
  if (typeof value !== 'string' || value.length === 0) add(errors, field, 'must be a non-empty string');
  else if (value.length > max) add(errors, field, `must be at most ${max} characters`);
  else return true;
  return false;
}

function checkNodes(errors: Errors, field: string, nodes: unknown): Set<string> {
  const ids = new Set<string>();
  if (!Array.isArray(nodes)) {
    add(errors, `${field}.nodes`, 'must be an array');
    return ids;
  }
  nodes.forEach((node: unknown, index) => {
    const at = `${field}.nodes.${index}`;
    if (!isObject(node)) {
      add(errors, at, 'must be an object');
      return;
    }
    if (checkText(errors, `${at}.id`, node.id, MAX_ID)) {
      if (ids.has(node.id)) add(errors, `${at}.id`, `duplicate node id "${node.id}"`);
      ids.add(node.id);
    }
    checkText(errors, `${at}.type`, node.type, MAX_TYPE);
    if (node.position !== undefined && node.position !== null) {
      const position = node.position;
      if (!isObject(position) || !Number.isFinite(position.x) || !Number.isFinite(position.y)) {
        add(errors, `${at}.position`, 'must be {x: number, y: number}');
      }
    }
    if (!isObject(node.data)) add(errors, `${at}.data`, 'must be an object');
  });
  return ids;
}

function checkHandle(errors: Errors, field: string, value: unknown): void {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    add(errors, field, 'must be a string or null');
  }
}

function checkEdges(errors: Errors, field: string, edges: unknown, nodeIds: Set<string>): void {
  if (!Array.isArray(edges)) {
    add(errors, `${field}.edges`, 'must be an array');
    return;
  }
  const ids = new Set<string>();
  edges.forEach((edge: unknown, index) => {
    const at = `${field}.edges.${index}`;
    if (!isObject(edge)) {
      add(errors, at, 'must be an object');
      return;
    }
    if (checkText(errors, `${at}.id`, edge.id, MAX_ID)) {
      if (ids.has(edge.id)) add(errors, `${at}.id`, `duplicate edge id "${edge.id}"`);
      ids.add(edge.id);
    }
    for (const end of ['source', 'target'] as const) {
      const value = edge[end];
      if (checkText(errors, `${at}.${end}`, value, MAX_ID) && !nodeIds.has(value)) {
        add(errors, `${at}.${end}`, `references unknown node "${value}"`);
      }
    }
    checkHandle(errors, `${at}.sourceHandle`, edge.sourceHandle);
    checkHandle(errors, `${at}.targetHandle`, edge.targetHandle);
  });
}

/** Too many nodes or edges (checked first: nothing else of such a definition is looked at). */
export function definitionCountErrors(definition: unknown, field = 'definition'): Errors {
  const errors: Errors = {};
  if (!isObject(definition)) return errors;
  const { nodes, edges } = definition;
  if (Array.isArray(nodes) && nodes.length > MAX_DEFINITION_NODES) {
    add(errors, `${field}.nodes`, `must have at most ${MAX_DEFINITION_NODES} nodes (has ${nodes.length})`);
  }
  if (Array.isArray(edges) && edges.length > MAX_DEFINITION_EDGES) {
    add(errors, `${field}.edges`, `must have at most ${MAX_DEFINITION_EDGES} edges (has ${edges.length})`);
  }
  return errors;
}

/**
 * Most fields one answer names. A definition may have 500 nodes and 2,000 edges, each with several
 * problems; all of them would not fit the gRPC error trailer (~64 KiB of headers: past it the call
 * fails as a 500), and the first ones are what an editor shows anyway.
 */
export const MAX_REPORTED_FIELDS = 50;

function firstFields(errors: Errors, field: string): Errors {
  const names = Object.keys(errors);
  if (names.length <= MAX_REPORTED_FIELDS) return errors;
  const kept: Errors = {};
  for (const name of names.slice(0, MAX_REPORTED_FIELDS)) kept[name] = errors[name]!;
  const more = `and ${names.length - MAX_REPORTED_FIELDS} more fields with problems (the first ${MAX_REPORTED_FIELDS} are listed)`;
  (kept[field] ??= []).push(more);
  return kept;
}

/** The field errors of a definition (empty when it is well formed). `field` prefixes every name. */
export function definitionErrors(definition: unknown, maxBytes: number, field = 'definition'): Errors {
  return firstFields(allDefinitionErrors(definition, maxBytes, field), field);
}

function allDefinitionErrors(definition: unknown, maxBytes: number, field: string): Errors {
  const errors: Errors = {};
  if (!isObject(definition)) {
    add(errors, field, 'must be an object');
    return errors;
  }
  const bytes = Buffer.byteLength(JSON.stringify(definition), 'utf8');
  if (bytes > maxBytes) {
    add(errors, field, `must be at most ${maxBytes} bytes of JSON (is ${bytes})`);
    return errors;
  }
  const counts = definitionCountErrors(definition, field);
  if (Object.keys(counts).length > 0) return counts;
  const version = definition.schema_version;
  if (
    typeof version !== 'number' ||
    !Number.isInteger(version) ||
    version < 0 ||
    version > DEFINITION_RULES.maxSchemaVersion
  ) {
    add(errors, `${field}.schema_version`, 'must be an integer >= 0');
  }
  const nodeIds = checkNodes(errors, field, definition.nodes);
  checkEdges(errors, field, definition.edges, nodeIds);
  // The one node type whose data is checked on save: a code node's code is compiled here, so a
  // syntax error shows in the editor, not in a failed run.
  Object.assign(errors, codeNodesErrors(definition, field));
  if (definition.metadata !== undefined && definition.metadata !== null && !isObject(definition.metadata)) {
    add(errors, `${field}.metadata`, 'must be an object');
  }
  return errors;
}

/** Refuses a malformed definition with 422 / 1001 naming the field(s). */
export function checkDefinition(definition: unknown, maxBytes: number): WorkflowDefinition {
  const errors = definitionErrors(definition, maxBytes);
  if (Object.keys(errors).length > 0) throw BusinessError.validation(errors);
  return definition as WorkflowDefinition;
}
