import { CODE_NODE_RULES as CODE, DEFINITION_RULES as RULES } from '@platform/contracts';
import { z } from 'zod';
import { documentedText, NO_NUL_PATTERN } from './validation.js';

/**
 * The definition format as the OpenAPI document states it (docs/workflows.md "The definition
 * format"), built from the rules the workflows service enforces (@platform/contracts
 * DEFINITION_RULES, CODE_NODE_RULES). The gateway does not validate these shapes itself: the
 * service does, and its 422 / 1001 names each field by its path (`definition.nodes.3.id`), which
 * these schemas would word differently. So the request schemas below stay plain JSON objects for
 * validation and carry this shape as their document (zod `meta`).
 *
 * What a schema cannot state, the descriptions do: node and edge ids unique, edge ends naming
 * nodes of the same definition, a code node's code compiling, the size in bytes
 * (MAX_DEFINITION_BYTES). Node types are an open set on save (any type is stored; only a run
 * needs types it knows), so `type` is a string, and a `code` node's `data` has its own shape.
 */
const id = documentedText(z.string().min(1).max(RULES.idMaxLength));
/** An object that keeps other keys; the document says they too must be free of NUL. */
const looseObject = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.looseObject(shape).meta({ propertyNames: { type: 'string', pattern: NO_NUL_PATTERN } });
const anyObject = z.record(documentedText(z.string()), z.unknown());
const position = looseObject({ x: z.number(), y: z.number() }).nullable().optional();

const codeNode = looseObject({
  id,
  type: z.literal(CODE.type),
  position,
  data: looseObject({
    language: z.enum(CODE.languages),
    code: documentedText(z.string().min(1)).describe(
      'JavaScript defining function main(inputs); compiled (never run) on save',
    ),
    inputs: z
      .record(z.string().regex(CODE.inputNamePattern), z.string().max(CODE.maxInputTemplateLength))
      .meta({ maxProperties: CODE.maxInputs })
      .nullable()
      .optional()
      .describe('named template strings'),
    timeout_ms: z.number().int().min(1).max(CODE.maxTimeoutMs).nullable().optional(),
  }),
});

const otherNode = looseObject({
  id,
  type: documentedText(z.string().min(1).max(RULES.nodeTypeMaxLength)).meta({ not: { const: CODE.type } }),
  position,
  data: anyObject,
});

const handle = documentedText(z.string()).nullable().optional();
const edgeShape = looseObject({ id, source: id, target: id, sourceHandle: handle, targetHandle: handle });

const configFields = {
  schema_version: z
    .number()
    .int()
    .min(0)
    .max(RULES.maxSchemaVersion)
    .describe(`${RULES.currentSchemaVersion} is current; below is a legacy definition (stored, never run)`),
  metadata: anyObject.nullable().optional(),
};
// `uniqueItems` is the part of "ids unique" a schema can state: two equal items share their id.
const nodesShape = z
  .array(z.union([codeNode, otherNode]))
  .max(RULES.maxNodes)
  .meta({ uniqueItems: true })
  .describe('node ids unique');
const edgesShape = z
  .array(edgeShape)
  .max(RULES.maxEdges)
  .meta({ uniqueItems: true })
  .describe('edge ids unique; source and target name nodes of this definition');

type JsonSchema = Record<string, unknown>;

/**
 * The part of "edge ends name nodes of this definition" a schema can state: without nodes there
 * can be no edges. For an object with `nodes` and `edges` side by side (a definition, a version).
 */
export const EDGES_NEED_NODES: JsonSchema = {
  if: { properties: { nodes: { maxItems: 0 } }, required: ['nodes'] },
  then: { properties: { edges: { maxItems: 0 } } },
};

function documentOf(schema: z.ZodType, extra: JsonSchema = {}): JsonSchema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' });
  return { ...json, ...extra };
}

const plainObject = () => z.record(z.string(), z.unknown());

/** A whole definition (POST and PUT /workflows). */
export const definitionBody = plainObject().meta(
  documentOf(looseObject({ ...configFields, nodes: nodesShape, edges: edgesShape }), {
    description:
      '{schema_version, nodes, edges, metadata?}, other keys kept; stored exactly as given; at most MAX_DEFINITION_BYTES (512 KiB) of JSON (docs/workflows.md)',
    ...EDGES_NEED_NODES,
  }),
);

/** A version's parts (POST /workflow-versions): the definition taken apart. */
export const versionNodesBody = z.array(plainObject()).meta(documentOf(nodesShape));
export const versionEdgesBody = z.array(plainObject()).meta(documentOf(edgesShape));
export const versionConfigBody = plainObject().meta(
  documentOf(looseObject({ ...configFields, schema_version: configFields.schema_version.optional() }), {
    description:
      "the definition keys besides nodes and edges (schema_version, metadata, …); schema_version defaults to the workflow's",
    propertyNames: { type: 'string', pattern: NO_NUL_PATTERN, not: { enum: ['nodes', 'edges'] } },
  }),
);
