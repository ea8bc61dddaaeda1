/**
 * The field rules of a workflow and of its definition, one source for the gateway (its request
 * schemas and the OpenAPI document state them) and the workflows service (which enforces them,
 * for the gateway and any other gRPC caller). docs/workflows.md "The definition format".
 */
export const WORKFLOW_FIELD_RULES = {
  nameMaxLength: 200,
  descriptionMaxLength: 2000,
  iconMaxLength: 500,
  triggerTypeMaxLength: 50,
  /** A trigger type names a kind of trigger: lowercase, a letter first. */
  triggerTypePattern: /^[a-z][a-z0-9_.-]*$/,
} as const;

export const DEFINITION_RULES = {
  /** Node and edge ids, and the node and edge ends that name them. */
  idMaxLength: 200,
  nodeTypeMaxLength: 100,
  /**
   * Most nodes and edges one definition may have. Part of the format, not a per-replica setting:
   * a definition saved on one replica must run on every other. 500 nodes is ~5× the largest
   * canvases we know of and ~1 KiB per node within the 512 KiB size limit; a DAG of 500 nodes
   * rarely needs more than 4 edges a node.
   */
  maxNodes: 500,
  maxEdges: 2_000,
  maxSchemaVersion: 1_000_000,
  /** The type-system version the canvas writes; older ones are kept but cannot run. */
  currentSchemaVersion: 2,
} as const;

/**
 * What a `code` node's `data` must hold on save (docs/workflows.md "code"), besides code that
 * compiles. The languages and the time limit are the sandbox's (@platform/sandbox
 * SUPPORTED_LANGUAGES, MAX_TIMEOUT_MS; a workflows test keeps them equal): stated here because the
 * gateway, which documents them, does not load the sandbox.
 */
export const CODE_NODE_RULES = {
  type: 'code',
  languages: ['javascript'],
  maxTimeoutMs: 30_000,
  maxInputs: 100,
  inputNamePattern: /^[A-Za-z_$][A-Za-z0-9_$]{0,99}$/,
  maxInputTemplateLength: 100_000,
} as const;
