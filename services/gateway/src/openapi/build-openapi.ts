import { z } from 'zod';
import type { RouteDefinition } from '../routes/route-definition.js';
import { describeCodes, errorStatusCodes } from './error-responses.js';
import { withSafeText } from './safe-text-schema.js';

type JsonSchema = Record<string, unknown>;

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  // Requests: the edge's no-NUL rule, which no zod schema states, goes into the document too.
  return io === 'input' ? withSafeText(json) : json;
}

function openApiPath(expressPath: string): string {
  return `/api/v1${expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
}

function parameters(schema: z.ZodType | undefined, location: 'path' | 'query'): unknown[] {
  if (!schema) return [];
  const json = toJsonSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
    ...(property.type === 'array' ? { style: 'form', explode: true } : {}),
  }));
}

function envelope(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['code', 'data', 'msg'],
    properties: { code: { type: 'integer' }, data, msg: { type: 'string' } },
  };
}

function errorResponses(route: RouteDefinition<unknown>): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of [...errorStatusCodes(route)].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: describeCodes(codes),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  // Node's HTTP parser refuses a request line plus headers above its limit (16 KiB) before express
  // runs, with an empty body: no envelope is possible there.
  responses['431'] = {
    description: 'Request line and headers too large (refused by the HTTP server, no body)',
  };
  return responses;
}

function operation(route: RouteDefinition<unknown>): JsonSchema {
  const dataSchema = route.response ? toJsonSchema(route.response, 'output') : {};
  const op: JsonSchema = {
    operationId: `${route.method}${route.path.replace(/[/:{}-]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: route.summary,
    tags: route.tags,
    parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
    responses: {
      '200': route.events
        ? {
            description:
              'Server-Sent Events (`id: <seq>`, `event: <type>`, `data: <JSON>`); resumable with Last-Event-ID',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          }
        : {
            description: 'Success envelope',
            content: { 'application/json': { schema: envelope(dataSchema) } },
          },
      ...errorResponses(route),
    },
  };
  if (route.redirect) {
    (op.responses as JsonSchema)['302'] = {
      description: route.redirectDescription ?? 'Redirect',
      headers: { Location: { required: true, schema: { type: 'string', format: 'uri' } } },
    };
  }
  if (route.body) {
    const mediaType = route.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
    op.requestBody = {
      required: true,
      content: { [mediaType]: { schema: toJsonSchema(route.body, 'input') } },
    };
  }
  if (route.auth !== 'public') {
    op.security =
      route.auth === 'user_or_api_key' ? [{ bearerJwt: [] }, { apiKey: [] }] : [{ bearerJwt: [] }];
    if (route.permission) op['x-permission'] = route.permission;
  }
  return op;
}

/** The OpenAPI 3.1 document of every route in the table, generated from the same schemas. */
export function buildOpenApi(routes: RouteDefinition<unknown>[], version: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    (paths[openApiPath(route.path)] ??= {})[route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Agent Platform API',
      version,
      description: 'Every response is an envelope `{code, data, msg}`; clients branch on `code`.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        bearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'API key (`sk-…`) for agent and workflow calls',
        },
      },
      schemas: {
        ErrorEnvelope: envelope({
          type: ['object', 'null'],
          description: '1001: `errors` maps each field to its messages; other codes may carry details',
        }),
      },
    },
  };
}
