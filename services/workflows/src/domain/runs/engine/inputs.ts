import type { DefinitionNode } from '../../definition-rules.js';

/** One input the start node declares (`data.inputs`). */
export interface StartInput {
  name: string;
  type: InputType;
  required: boolean;
  default?: unknown;
}

export const INPUT_TYPES = ['string', 'number', 'boolean', 'object', 'array'] as const;
export type InputType = (typeof INPUT_TYPES)[number];

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function hasType(value: unknown, type: InputType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
  }
}

/** Why a start node's `data.inputs` is unusable (empty = fine). */
export function startInputProblems(node: DefinitionNode): string[] {
  const declared = node.data.inputs;
  if (declared === undefined) return [];
  if (!Array.isArray(declared)) return ['data.inputs must be an array'];
  const problems: string[] = [];
  const names = new Set<string>();
  declared.forEach((input: unknown, index) => {
    const at = `data.inputs.${index}`;
    if (!isRecord(input)) return void problems.push(`${at} must be an object`);
    const { name, type, required } = input;
    if (typeof name !== 'string' || !NAME.test(name)) {
      problems.push(`${at}.name must be an identifier (letters, digits, _; up to 100)`);
    } else if (names.has(name)) problems.push(`${at}.name "${name}" is declared twice`);
    else names.add(name);
    if (!INPUT_TYPES.includes(type as InputType))
      problems.push(`${at}.type must be one of ${INPUT_TYPES.join(', ')}`);
    else if (input.default !== undefined && !hasType(input.default, type as InputType)) {
      problems.push(`${at}.default must be a ${String(type)}`);
    }
    if (required !== undefined && typeof required !== 'boolean')
      problems.push(`${at}.required must be a boolean`);
  });
  return problems;
}

/** The declared inputs of a start node that passed `startInputProblems`. */
export function startInputs(node: DefinitionNode): StartInput[] {
  const declared = Array.isArray(node.data.inputs) ? (node.data.inputs as Record<string, unknown>[]) : [];
  return declared.map((input) => ({
    name: input.name as string,
    type: input.type as InputType,
    required: input.required === true,
    ...(input.default === undefined ? {} : { default: input.default }),
  }));
}

/**
 * The field errors of a run's inputs against the start node's declaration (`inputs.<name>`:
 * missing required, wrong type). null counts as missing; undeclared inputs are not checked.
 */
export function inputErrors(
  plan: { definition: { nodes: DefinitionNode[] }; startId: string },
  inputs: unknown,
): Record<string, string[]> {
  if (inputs !== undefined && inputs !== null && !isRecord(inputs)) return { inputs: ['must be an object'] };
  const given = (inputs ?? {}) as Record<string, unknown>;
  const start = plan.definition.nodes.find((node) => node.id === plan.startId);
  const errors: Record<string, string[]> = {};
  for (const input of start ? startInputs(start) : []) {
    const value = given[input.name];
    if (value === undefined || value === null) {
      if (input.required && input.default === undefined) errors[`inputs.${input.name}`] = ['is required'];
    } else if (!hasType(value, input.type)) {
      errors[`inputs.${input.name}`] = [
        `must be ${input.type === 'array' || input.type === 'object' ? 'an' : 'a'} ${input.type}`,
      ];
    }
  }
  return errors;
}

/** The start node's outputs: the given inputs (undeclared ones too) plus defaults of absent declared ones. */
export function resolveInputs(
  node: DefinitionNode,
  inputs: Record<string, unknown>,
): Record<string, unknown> {
  const outputs: Record<string, unknown> = { ...inputs };
  for (const input of startInputs(node)) {
    const value = inputs[input.name];
    if ((value === undefined || value === null) && input.default !== undefined)
      outputs[input.name] = input.default;
  }
  return outputs;
}
