import { createHash } from 'node:crypto';
import { outboundRequest, type Resolver } from '@platform/outbound-http';
import type { DefinitionNode } from '../../definition-rules.js';
import type { NodeModule, NodeOutcome } from '../engine/contract.js';
import { ByteMeter } from '../engine/limits.js';
import { renderText } from '../engine/variables.js';
import { chatCompletionUrl, checkLlmNode, llmMessages, llmTimeoutMs } from './llm-fields.js';
import { failed, isOutboundError, outboundFailure } from './node-failure.js';
import { SseParser } from './sse-parser.js';
import { TextBatcher } from './text-batcher.js';

export interface ModelEndpoint {
  baseUrl: string;
  /** null when the model has no key. */
  apiKey: string | null;
  upstreamModel: string;
  provider: string;
  modelType: string;
}

/** What an llm node asks of the models service (adapters/models-client.ts over gRPC). */
export interface ModelGateway {
  /** AuthorizeModelUse: throws the BusinessError (6101, 6103, 6104, 6106) when the team may not. */
  authorizeUse(teamId: string, modelId: string): Promise<void>;
  resolveEndpoint(modelId: string): Promise<ModelEndpoint>;
  /** RecordModelUsage, counted once per idempotency key. */
  recordUsage(usage: {
    teamId: string;
    modelId: string;
    tokens: number;
    requests: number;
    idempotencyKey: string;
  }): Promise<{ duplicate: boolean }>;
}

export interface LlmNodeDependencies {
  models: ModelGateway;
  /** `model_endpoint_allowlist`: model calls go to registered origins only, as in models. */
  modelAllowlist: () => Promise<readonly string[]>;
  resolve?: Resolver;
}

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** True when the upstream reported none and the count is an estimate (4 characters a token). */
  estimated?: boolean;
}

const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** RecordModelUsage keys are 1-200 characters; a longer node id is hashed (still stable). */
function usageKey(idempotencyKey: string): string {
  return idempotencyKey.length <= 200
    ? idempotencyKey
    : `sha256:${createHash('sha256').update(idempotencyKey).digest('hex')}`;
}

function readUsage(value: unknown): Usage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const usage = value as Record<string, unknown>;
  const count = (field: string) =>
    typeof usage[field] === 'number' && Number.isFinite(usage[field])
      ? Math.max(0, Math.round(usage[field]))
      : 0;
  const prompt = count('prompt_tokens');
  const completion = count('completion_tokens');
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: count('total_tokens') || prompt + completion,
  };
}

/**
 * `llm` (docs/workflows.md "llm"): AuthorizeModelUse for the run's team, an OpenAI-compatible
 * streamed chat completion through the model's resolved endpoint (each delta a `text_chunk`),
 * then RecordModelUsage keyed by the node's idempotency key, so a node retried after a crash is
 * counted once. Outputs `{text, usage}`.
 */
export function llmNode(deps: LlmNodeDependencies): NodeModule {
  return {
    type: 'llm',
    check: checkLlmNode,
    timeoutMs: (node) => llmTimeoutMs(node),
    async execute({ node, variables, run, idempotencyKey, signal, emitText }): Promise<NodeOutcome> {
      const modelId = node.data.model_id as string;
      await deps.models.authorizeUse(run.teamId, modelId);
      const endpoint = await deps.models.resolveEndpoint(modelId);
      if (endpoint.modelType !== 'chat') {
        return failed(
          'model_not_chat',
          `model ${modelId} is a ${endpoint.modelType} model, not a chat model`,
        );
      }
      // Each message within the value bound, the whole prompt within the node output's.
      const limits = {
        maxValueBytes: run.limits.maxValueBytes,
        meter: new ByteMeter('value', run.limits.maxNodeOutputBytes),
      };
      const messages = llmMessages(node).map((m) => ({
        role: m.role,
        content: renderText(m.content, variables, limits),
      }));
      const streamed = await streamCompletion(deps, node, endpoint, messages, signal, emitText);
      if ('outcome' in streamed) return streamed.outcome;
      const { text } = streamed;
      const usage = streamed.usage ?? estimate(messages, text);
      await deps.models.recordUsage({
        teamId: run.teamId,
        modelId,
        tokens: usage.total_tokens,
        requests: 1,
        idempotencyKey: usageKey(idempotencyKey),
      });
      return { status: 'success', outputs: { text, usage }, tokens: usage.total_tokens, model: modelId };
    },
  };
}

function estimate(messages: { content: string }[], text: string): Usage {
  const prompt = Math.ceil(messages.reduce((sum, m) => sum + m.content.length, 0) / 4);
  const completion = Math.ceil(text.length / 4);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    estimated: true,
  };
}

async function streamCompletion(
  deps: LlmNodeDependencies,
  node: DefinitionNode,
  endpoint: ModelEndpoint,
  messages: { role: string; content: string }[],
  signal: AbortSignal,
  emitText: (chunk: string) => Promise<void>,
): Promise<{ text: string; usage: Usage | undefined } | { outcome: NodeOutcome }> {
  const local = new AbortController();
  let text = '';
  let usage: Usage | undefined;
  let streamError: string | undefined;
  // In order, one journal write at a time; a failed write (a lost lease) stops the request.
  const batcher = new TextBatcher(emitText, () => local.abort());
  const parser = new SseParser((data) => {
    if (data.trim() === '[DONE]') return;
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(data) as Record<string, unknown>;
    } catch {
      return;
    }
    if (event.error !== undefined) streamError ??= JSON.stringify(event.error).slice(0, 500);
    const choices = Array.isArray(event.choices)
      ? (event.choices as { delta?: { content?: unknown } }[])
      : [];
    const delta = choices[0]?.delta?.content;
    if (typeof delta === 'string' && delta !== '') {
      text += delta;
      batcher.push(delta);
    }
    if (event.usage) usage = readUsage(event.usage) ?? usage;
  });
  const body = {
    model: endpoint.upstreamModel,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(typeof node.data.temperature === 'number' ? { temperature: node.data.temperature } : {}),
    ...(typeof node.data.max_tokens === 'number' ? { max_tokens: node.data.max_tokens } : {}),
  };
  const timeoutMs = llmTimeoutMs(node);
  let response;
  try {
    response = await outboundRequest(
      chatCompletionUrl(endpoint.baseUrl),
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.any([signal, local.signal]),
        purpose: 'llm',
        onData: (chunk, { status }) => {
          if (status >= 200 && status < 300) parser.push(chunk);
        },
      },
      {
        allowlist: deps.modelAllowlist,
        requireAllowlisted: true,
        timeoutMs,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        ...(deps.resolve ? { resolve: deps.resolve } : {}),
      },
    );
  } catch (error) {
    await batcher.flushed();
    if (isOutboundError(error)) return { outcome: outboundFailure(error, timeoutMs, 'model') };
    throw error;
  }
  if (response.status < 200 || response.status >= 300) {
    const detail = response.text().trim().slice(0, 500);
    return {
      outcome: failed('model_upstream_error', `the model answered HTTP ${response.status}: ${detail}`, {
        status: response.status,
      }),
    };
  }
  parser.end();
  await batcher.flushed();
  if (streamError !== undefined)
    return { outcome: failed('model_upstream_error', `the model stream reported an error: ${streamError}`) };
  return { text, usage };
}
