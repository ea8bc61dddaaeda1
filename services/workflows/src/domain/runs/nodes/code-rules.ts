import { CODE_NODE_RULES } from '@platform/contracts';
import { checkCodeSync, DEFAULT_TIMEOUT_MS, type CodeProblem } from '@platform/sandbox';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';

/**
 * The definition rules of a `code` node (docs/workflows.md "code"), checked when a workflow or a
 * version is saved and again when a run starts, both as 422 / 1001 naming the field
 * (`definition.nodes.<i>.data.code`). The code is compiled (never run) in a throwaway isolate.
 */
export const CODE_NODE_TYPE = CODE_NODE_RULES.type;
/** Named inputs one code node may declare. */
export const MAX_CODE_INPUTS = CODE_NODE_RULES.maxInputs;
const INPUT_NAME = CODE_NODE_RULES.inputNamePattern;
const MAX_INPUT_TEMPLATE = CODE_NODE_RULES.maxInputTemplateLength;
const SUPPORTED_LANGUAGES: readonly string[] = CODE_NODE_RULES.languages;
const MAX_TIMEOUT_MS = CODE_NODE_RULES.maxTimeoutMs;

type Errors = Record<string, string[]>;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// The compile check's answers by code hash: planning a debug run re-checks the same code often.
const checked = new LRUCache<string, CodeProblem[]>({ max: 1_000 });

function codeProblems(language: string, code: string): CodeProblem[] {
  const key = createHash('sha256').update(language).update('\0').update(code).digest('base64');
  let problems = checked.get(key);
  if (!problems) {
    problems = checkCodeSync({ language, code });
    checked.set(key, problems);
  }
  return problems;
}

/** The field errors of one code node's `data` (`at` is `definition.nodes.<i>`). */
export function codeNodeErrors(data: Record<string, unknown>, at: string): Errors {
  const errors: Errors = {};
  const add = (field: string, message: string) => (errors[`${at}.data.${field}`] ??= []).push(message);
  if (!SUPPORTED_LANGUAGES.includes(data.language as string)) {
    add('language', `must be one of: ${SUPPORTED_LANGUAGES.join(', ')}`);
  } else if (typeof data.code !== 'string' || data.code.trim() === '') {
    add('code', 'must be a non-empty string defining function main(inputs)');
  } else {
    for (const problem of codeProblems(data.language as string, data.code))
      add(problem.field, problem.message);
  }
  const inputs = data.inputs;
  if (inputs !== undefined && inputs !== null) {
    if (!isRecord(inputs)) add('inputs', 'must be an object of template strings');
    else {
      const names = Object.keys(inputs);
      if (names.length > MAX_CODE_INPUTS) add('inputs', `must have at most ${MAX_CODE_INPUTS} inputs`);
      for (const name of names.slice(0, MAX_CODE_INPUTS)) {
        const value = inputs[name];
        if (!INPUT_NAME.test(name)) add('inputs', `"${name.slice(0, 100)}" is not a valid input name`);
        else if (typeof value !== 'string' || value.length > MAX_INPUT_TEMPLATE) {
          add(`inputs.${name}`, `must be a template string of at most ${MAX_INPUT_TEMPLATE} characters`);
        }
      }
    }
  }
  const timeout = data.timeout_ms;
  if (
    timeout !== undefined &&
    timeout !== null &&
    (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1 || timeout > MAX_TIMEOUT_MS)
  ) {
    add('timeout_ms', `must be an integer from 1 to ${MAX_TIMEOUT_MS}`);
  }
  return errors;
}

/** Every code node's field errors in a definition (`field` prefixes the names). */
export function codeNodesErrors(definition: unknown, field = 'definition'): Errors {
  if (!isRecord(definition) || !Array.isArray(definition.nodes)) return {};
  const errors: Errors = {};
  definition.nodes.forEach((node: unknown, index) => {
    if (isRecord(node) && node.type === CODE_NODE_TYPE && isRecord(node.data)) {
      Object.assign(errors, codeNodeErrors(node.data, `${field}.nodes.${index}`));
    }
  });
  return errors;
}

/** The node's time limit in ms (`data.timeout_ms`, default 2000). */
export const codeTimeoutOf = (data: Record<string, unknown>): number =>
  typeof data.timeout_ms === 'number' ? data.timeout_ms : DEFAULT_TIMEOUT_MS;
