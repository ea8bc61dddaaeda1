import { ErrorCode } from '@platform/errors';
import type { NodeModule } from '../engine/contract.js';
import { asText, renderValue, templateRootErrors } from '../engine/variables.js';
import { edgesFrom, nodeIdsOf } from './node-checks.js';

export const OPERATORS = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'not_contains',
  'empty',
  'not_empty',
] as const;
type Operator = (typeof OPERATORS)[number];
interface Comparison {
  left: unknown;
  operator: Operator;
  right?: unknown;
}
const BRANCHES = new Set(['true', 'false']);
const MAX_CONDITIONS = 100;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A number, or a string that is one ("42", " 1.5 "); undefined otherwise. */
function numeric(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

function equal(left: unknown, right: unknown): boolean {
  const [a, b] = [numeric(left), numeric(right)];
  if (a !== undefined && b !== undefined) return a === b;
  return asText(left) === asText(right);
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

function contains(left: unknown, right: unknown): boolean {
  if (typeof left === 'string') return left.includes(asText(right));
  if (Array.isArray(left)) return left.some((item) => equal(item, right));
  if (isRecord(left)) return Object.hasOwn(left, asText(right));
  return false;
}

class NotComparable extends Error {}

function compare({ operator }: Comparison, left: unknown, right: unknown): boolean {
  switch (operator) {
    case 'eq':
      return equal(left, right);
    case 'ne':
      return !equal(left, right);
    case 'contains':
      return contains(left, right);
    case 'not_contains':
      return !contains(left, right);
    case 'empty':
      return isEmpty(left);
    case 'not_empty':
      return !isEmpty(left);
    default: {
      const [a, b] = [numeric(left), numeric(right)];
      if (a === undefined || b === undefined) {
        throw new NotComparable(
          `${operator} needs two numbers, got ${JSON.stringify(asText(left))} and ${JSON.stringify(asText(right))}`,
        );
      }
      if (operator === 'gt') return a > b;
      if (operator === 'gte') return a >= b;
      if (operator === 'lt') return a < b;
      return a <= b;
    }
  }
}

/**
 * `condition`: `data.conditions: [{left, operator, right}]` joined by `data.logic` (`and`, the
 * default, or `or`); takes the `true` or `false` branch (edges' `sourceHandle`), the other is
 * skipped. Operands are templates; `{{path}}` alone keeps the value's type. Numbers compare as
 * numbers (numeric strings too); gt/gte/lt/lte on a non-number fail the node.
 */
export const conditionNode: NodeModule = {
  type: 'condition',
  instant: true,
  check(node, definition) {
    const { conditions, logic } = node.data;
    const problems: string[] = [];
    if (logic !== undefined && logic !== 'and' && logic !== 'or')
      problems.push('data.logic must be "and" or "or"');
    if (!Array.isArray(conditions) || conditions.length === 0 || conditions.length > MAX_CONDITIONS) {
      problems.push(`data.conditions must be an array of 1-${MAX_CONDITIONS} comparisons`);
    } else {
      const ids = nodeIdsOf(definition);
      conditions.forEach((condition: unknown, index) => {
        const at = `data.conditions.${index}`;
        if (!isRecord(condition)) return void problems.push(`${at} must be an object`);
        if (!OPERATORS.includes(condition.operator as Operator)) {
          problems.push(`${at}.operator must be one of ${OPERATORS.join(', ')}`);
        }
        problems.push(...templateRootErrors([condition.left, condition.right], ids, at));
      });
    }
    for (const edge of edgesFrom(definition, node.id)) {
      if (typeof edge.sourceHandle !== 'string' || !BRANCHES.has(edge.sourceHandle)) {
        problems.push(`edge ${edge.id} must leave the condition by sourceHandle "true" or "false"`);
      }
    }
    return problems;
  },
  async execute({ node, variables, run }) {
    const conditions = node.data.conditions as Comparison[];
    const render = (value: unknown) => renderValue(value, variables, run.limits);
    try {
      const results = conditions.map((condition) =>
        compare(condition, render(condition.left), render(condition.right)),
      );
      const taken = node.data.logic === 'or' ? results.some(Boolean) : results.every(Boolean);
      return { status: 'success', outputs: { result: taken }, branch: String(taken) };
    } catch (error) {
      if (!(error instanceof NotComparable)) throw error;
      return {
        status: 'failed',
        outputs: {},
        error: {
          code: ErrorCode.BAD_REQUEST,
          message: error.message,
          data: { reason: 'condition_not_comparable' },
        },
      };
    }
  },
};
