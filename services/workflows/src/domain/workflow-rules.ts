import { WORKFLOW_FIELD_RULES as RULES, type WorkflowVisibility } from '@platform/contracts';
import { BusinessError } from '@platform/errors';
import type { WorkflowPatch } from '../data/workflows-repository.js';
import { definitionErrors } from './definition-rules.js';

/**
 * A workflow's editable fields as use cases take them (JSON values parsed). Closed sets arrive
 * checked (the gRPC edge translates the proto enums); the lengths and the trigger type's form
 * are checked here too, for every gRPC caller.
 */
export interface WorkflowFields {
  name?: string;
  description?: string;
  /** null or '' clears it. */
  icon?: string | null;
  visibility?: WorkflowVisibility;
  definition?: unknown;
  variables?: unknown;
  triggerType?: string;
  triggerConfig?: unknown;
}

export const FIELD_LIMITS = {
  name: RULES.nameMaxLength,
  description: RULES.descriptionMaxLength,
  icon: RULES.iconMaxLength,
  triggerType: RULES.triggerTypeMaxLength,
} as const;

type Errors = Record<string, string[]>;
const add = (errors: Errors, field: string, message: string) => (errors[field] ??= []).push(message);
const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

function checkJson(errors: Errors, field: string, value: unknown, maxBytes: number, arrays: boolean): void {
  if (!isObject(value) && !(arrays && Array.isArray(value))) {
    add(errors, field, arrays ? 'must be an object or an array' : 'must be an object');
  } else if (Buffer.byteLength(JSON.stringify(value), 'utf8') > maxBytes) {
    add(errors, field, `must be at most ${maxBytes} bytes of JSON`);
  }
}

/** 422 / 1001 naming every bad field; `required` lists what a create must carry. */
export function workflowFieldErrors(fields: WorkflowFields, maxBytes: number): Errors {
  const errors: Errors = {};
  const { name, description, icon, triggerType } = fields;
  if (name !== undefined && (name.trim().length === 0 || name.length > FIELD_LIMITS.name)) {
    add(errors, 'name', `must be 1-${FIELD_LIMITS.name} characters`);
  }
  if (description !== undefined && description.length > FIELD_LIMITS.description) {
    add(errors, 'description', `must be at most ${FIELD_LIMITS.description} characters`);
  }
  if (icon && icon.length > FIELD_LIMITS.icon)
    add(errors, 'icon', `must be at most ${FIELD_LIMITS.icon} characters`);
  if (
    triggerType !== undefined &&
    (triggerType.length > FIELD_LIMITS.triggerType || !RULES.triggerTypePattern.test(triggerType))
  ) {
    add(errors, 'trigger_type', `must be 1-${FIELD_LIMITS.triggerType} lowercase letters, digits, _ . -`);
  }
  if (fields.definition !== undefined) Object.assign(errors, definitionErrors(fields.definition, maxBytes));
  if (fields.variables !== undefined) checkJson(errors, 'variables', fields.variables, maxBytes, true);
  if (fields.triggerConfig !== undefined)
    checkJson(errors, 'trigger_config', fields.triggerConfig, maxBytes, false);
  return errors;
}

/** Checks the fields and turns them into the repository's patch (JSON values as text). */
export function toWorkflowPatch(fields: WorkflowFields, maxBytes: number): WorkflowPatch {
  const errors = workflowFieldErrors(fields, maxBytes);
  if (Object.keys(errors).length > 0) throw BusinessError.validation(errors);
  const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
  return {
    name: fields.name?.trim(),
    description: fields.description,
    icon: fields.icon === undefined ? undefined : fields.icon || null,
    visibility: fields.visibility,
    definition: json(fields.definition),
    variables: json(fields.variables),
    triggerType: fields.triggerType,
    triggerConfig: json(fields.triggerConfig),
  };
}

/** Parses a JSON-text field of a request; malformed text is 422 / 1001 naming the field. */
export function parseJsonField(field: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw BusinessError.validation({ [field]: ['must be valid JSON'] });
  }
}
