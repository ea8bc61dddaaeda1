import { CODE_NODE_RULES, DEFINITION_RULES } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../src/index.js';
import { buildOpenApi } from '../src/openapi/build-openapi.js';
import { workflowVersionsRoutes } from '../src/routes/workflow-versions-routes.js';
import { workflowsRoutes } from '../src/routes/workflows-routes.js';

type Schema = Record<string, any>;
const routes = [...workflowsRoutes, ...workflowVersionsRoutes] as RouteDefinition<unknown>[];
const doc = buildOpenApi(routes, 'test') as Schema;
const bodyOf = (path: string, method: string): Schema =>
  doc.paths[`/api/v1${path}`][method].requestBody.content['application/json'].schema;

describe('the workflow definition in the OpenAPI document', () => {
  const definition = bodyOf('/workflows', 'post').properties.definition;

  it('states the definition format from the rules the service enforces', () => {
    expect(definition.required).toEqual(['schema_version', 'nodes', 'edges']);
    expect(definition.properties.schema_version.maximum).toBe(DEFINITION_RULES.maxSchemaVersion);
    expect(definition.properties.nodes.maxItems).toBe(DEFINITION_RULES.maxNodes);
    expect(definition.properties.edges.maxItems).toBe(DEFINITION_RULES.maxEdges);
    const [codeNode, otherNode] = definition.properties.nodes.items.anyOf as Schema[];
    expect(codeNode!.properties.type.const).toBe(CODE_NODE_RULES.type);
    expect(codeNode!.properties.data.properties.language.enum).toEqual([...CODE_NODE_RULES.languages]);
    expect(otherNode!.properties.type.not).toEqual({ const: CODE_NODE_RULES.type });
    expect(definition.then).toEqual({ properties: { edges: { maxItems: 0 } } });
  });

  it('states the same parts for a version, and the NUL rule on its strings', () => {
    const version = bodyOf('/workflow-versions', 'post');
    expect(version.properties.nodes.maxItems).toBe(DEFINITION_RULES.maxNodes);
    expect(version.then).toEqual({ properties: { edges: { maxItems: 0 } } });
    expect(version.properties.description.pattern).toBe('^[^\\u0000]*$');
  });

  it('leaves validation to the service: a definition missing its parts passes the edge', () => {
    const create = workflowsRoutes.find((route) => route.method === 'post' && route.path === '/workflows')!;
    expect(create.body!.safeParse({ name: 'w', definition: { anything: true } }).success).toBe(true);
    expect(create.body!.safeParse({ name: 'w', definition: [] }).success).toBe(false);
  });

  it('states the trigger type form and the workflow enums by name', () => {
    const update = bodyOf('/workflows/{id}', 'put').properties;
    expect(update.trigger_type.pattern).toBe('^[a-z][a-z0-9_.-]*$');
    expect(update.visibility.enum).toEqual(['private', 'team', 'public']);
    expect(update.name.pattern).toContain('\\s');
  });
});
