import { BusinessError } from '@platform/errors';
import type { VersionBody, VersionMeta, StoredVersion } from '../../data/version-store.js';
import { CURRENT_SCHEMA_VERSION, definitionErrors } from '../definition-rules.js';
import { FIELD_LIMITS } from '../workflow-rules.js';

/**
 * A version holds a workflow definition taken apart: `nodes`, `edges`, and `config` = every other
 * top-level key of the definition (`schema_version`, `metadata`, a viewport…). Publishing puts it
 * back together as `{schema_version, ...config, nodes, edges}`, where `schema_version` is taken from
 * the workflow's current definition when the config does not carry one.
 */
export interface VersionContent {
  nodes: unknown;
  edges: unknown;
  config: unknown;
}

type Errors = Record<string, string[]>;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const add = (errors: Errors, field: string, message: string) => (errors[field] ??= []).push(message);

/** The definition a version stands for; `fallbackSchemaVersion` when its config has none. */
export function composeDefinition(
  content: VersionContent,
  fallbackSchemaVersion: unknown,
): Record<string, unknown> {
  const config = isObject(content.config) ? content.config : {};
  return { schema_version: fallbackSchemaVersion, ...config, nodes: content.nodes, edges: content.edges };
}

/** The reverse: a stored definition (JSON text) as a version's content. */
export function splitDefinition(definitionJson: string): VersionBody {
  const definition = JSON.parse(definitionJson) as Record<string, unknown>;
  const { nodes, edges, ...config } = definition;
  return {
    nodes: JSON.stringify(nodes ?? []),
    edges: JSON.stringify(edges ?? []),
    config: JSON.stringify(config),
  };
}

/** The schema_version of a stored definition (JSON text), for composing. */
export function schemaVersionOf(definitionJson: string): unknown {
  const definition = JSON.parse(definitionJson) as unknown;
  return isObject(definition)
    ? (definition.schema_version ?? CURRENT_SCHEMA_VERSION)
    : CURRENT_SCHEMA_VERSION;
}

/**
 * Refuses (422 / 1001 naming the field) content that could not be published: the same definition
 * rules as a workflow's PUT, applied when the version is created, so a publish never fails on shape.
 */
export function checkVersionContent(
  content: VersionContent,
  description: string,
  maxBytes: number,
): VersionBody {
  const errors: Errors = {};
  if (description.length > FIELD_LIMITS.description) {
    add(errors, 'description', `must be at most ${FIELD_LIMITS.description} characters`);
  }
  if (!Array.isArray(content.nodes)) add(errors, 'nodes', 'must be an array');
  if (!Array.isArray(content.edges)) add(errors, 'edges', 'must be an array');
  if (!isObject(content.config)) add(errors, 'config', 'must be an object');
  else {
    for (const key of ['nodes', 'edges']) {
      if (key in content.config) add(errors, `config.${key}`, `must not be set: ${key} is its own field`);
    }
  }
  if (Object.keys(errors).length > 0) throw BusinessError.validation(errors);

  const composed = composeDefinition(content, CURRENT_SCHEMA_VERSION);
  const bytes = Buffer.byteLength(JSON.stringify(composed), 'utf8');
  if (bytes > maxBytes) {
    throw BusinessError.validation({
      nodes: [`nodes, edges and config together must be at most ${maxBytes} bytes of JSON (are ${bytes})`],
    });
  }
  // The definition's own rules, with its field names mapped back to this request's.
  for (const [field, messages] of Object.entries(definitionErrors(composed, maxBytes, 'version'))) {
    const name = field.replace(/^version\.(schema_version|metadata)/, 'config.$1').replace(/^version\./, '');
    for (const message of messages) add(errors, name, message);
  }
  if (Object.keys(errors).length > 0) throw BusinessError.validation(errors);
  return {
    nodes: JSON.stringify(content.nodes),
    edges: JSON.stringify(content.edges),
    config: JSON.stringify(content.config),
  };
}

export function checkDescription(description: string, field = 'description'): void {
  if (description.length > FIELD_LIMITS.description) {
    throw BusinessError.validation({ [field]: [`must be at most ${FIELD_LIMITS.description} characters`] });
  }
}

export function versionNotFound(): BusinessError {
  return BusinessError.named('workflow_version_not_found');
}

/** A new record's metadata; `body` gives the counts. */
export function newVersionMeta(fields: {
  id: string;
  workflowId: string;
  description: string;
  status: VersionMeta['status'];
  createdBy: string;
  now: Date;
  body: VersionBody;
  sourceVersionId?: string;
}): VersionMeta {
  const at = fields.now.toISOString();
  const count = (json: string) => {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.length : 0;
  };
  return {
    id: fields.id,
    workflow_id: fields.workflowId,
    description: fields.description,
    status: fields.status,
    created_by: fields.createdBy,
    created_at: at,
    updated_at: at,
    node_count: count(fields.body.nodes),
    edge_count: count(fields.body.edges),
    source_version_id: fields.sourceVersionId ?? null,
  };
}

/** The parsed content of a stored version. */
export function contentOf(version: StoredVersion): VersionContent {
  return {
    nodes: JSON.parse(version.body.nodes) as unknown,
    edges: JSON.parse(version.body.edges) as unknown,
    config: JSON.parse(version.body.config) as unknown,
  };
}
