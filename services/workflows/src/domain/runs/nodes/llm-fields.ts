import type { DefinitionNode, WorkflowDefinition } from '../../definition-rules.js';
import { templateRootErrors } from '../engine/variables.js';
import { nodeIdsOf, intProblems } from './node-checks.js';

export const LLM_DEFAULT_TIMEOUT_MS = 120_000;
export const LLM_MAX_TIMEOUT_MS = 300_000;
const ROLES = new Set(['system', 'user', 'assistant']);
const MAX_MESSAGES = 200;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function llmTimeoutMs(node: DefinitionNode): number {
  return typeof node.data.timeout_ms === 'number' ? node.data.timeout_ms : LLM_DEFAULT_TIMEOUT_MS;
}

/** `data.messages`, or `data.prompt` as one user message. */
export function llmMessages(node: DefinitionNode): { role: string; content: string }[] {
  if (Array.isArray(node.data.messages)) return node.data.messages as { role: string; content: string }[];
  return [{ role: 'user', content: String(node.data.prompt ?? '') }];
}

/** `<base_url>/chat/completions` with exactly one slash between (the base URL's query kept). */
export function chatCompletionUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  return url.toString();
}

export function checkLlmNode(node: DefinitionNode, definition: WorkflowDefinition): string[] {
  const { model_id: modelId, messages, prompt, temperature, max_tokens: maxTokens } = node.data;
  const problems: string[] = [];
  if (typeof modelId !== 'string' || modelId.length === 0 || modelId.length > 100) {
    problems.push('data.model_id must be a model id');
  }
  if (messages !== undefined) {
    if (!Array.isArray(messages) || messages.length === 0 || messages.length > MAX_MESSAGES) {
      problems.push(`data.messages must be an array of 1-${MAX_MESSAGES} messages`);
    } else {
      messages.forEach((message: unknown, index) => {
        if (!isRecord(message) || !ROLES.has(String(message.role)) || typeof message.content !== 'string') {
          problems.push(`data.messages.${index} must be {role: system|user|assistant, content: string}`);
        }
      });
    }
  } else if (typeof prompt !== 'string' || prompt.trim() === '') {
    problems.push('data.messages or data.prompt is required');
  }
  if (
    temperature !== undefined &&
    (typeof temperature !== 'number' || !(temperature >= 0 && temperature <= 2))
  ) {
    problems.push('data.temperature must be a number from 0 to 2');
  }
  problems.push(...intProblems(maxTokens, 'data.max_tokens', 1_000_000));
  problems.push(...intProblems(node.data.timeout_ms, 'data.timeout_ms', LLM_MAX_TIMEOUT_MS));
  problems.push(...templateRootErrors([messages, prompt], nodeIdsOf(definition), 'data'));
  return problems;
}
