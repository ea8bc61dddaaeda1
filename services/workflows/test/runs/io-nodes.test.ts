import { describe, expect, it } from 'vitest';
import type { NodeModule } from '../../src/domain/runs/engine/contract.js';
import { httpRequestNode } from '../../src/domain/runs/nodes/http-request.js';
import { chatCompletionUrl, checkLlmNode, llmTimeoutMs } from '../../src/domain/runs/nodes/llm-fields.js';
import { SseParser } from '../../src/domain/runs/nodes/sse-parser.js';
import { TextBatcher } from '../../src/domain/runs/nodes/text-batcher.js';
import { definition, node } from '../support/definitions.js';

const defn = definition([node('fetch', 'http_request')], []);
const http: NodeModule = httpRequestNode({});

describe('http_request fields', () => {
  it('accepts a templated URL, headers, a JSON body and a timeout up to 300 000 ms', () => {
    const ok = node('h', 'http_request', {
      method: 'post',
      url: '{{inputs.base}}/x',
      headers: { 'X-A': '{{fetch.body.token}}' },
      body: { q: '{{inputs.q}}' },
      timeout_ms: 300_000,
    });
    expect(http.check(ok, defn)).toEqual([]);
    expect(http.timeoutMs?.(ok)).toBe(300_000);
    expect(http.timeoutMs?.(node('h', 'http_request', { url: 'https://x' }))).toBe(30_000);
  });

  it('names every bad field', () => {
    expect(
      http.check(
        node('h', 'http_request', {
          method: 'FETCH',
          url: 'ftp://x',
          headers: { a: 1 },
          timeout_ms: 300_001,
          body: '{{ghost.x}}',
        }),
        defn,
      ),
    ).toEqual([
      'data.method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
      'data.url must be an http or https URL',
      'data.headers must be an object of at most 50 string values',
      'data.timeout_ms must be an integer from 1 to 300000',
      'data: unknown variable {{ghost.x}} (use inputs.<name> or <node_id>.<output>)',
    ]);
    expect(http.check(node('h', 'http_request', {}), defn)).toEqual([
      'data.url must be a non-empty string of at most 8192 characters',
    ]);
  });
});

describe('llm fields', () => {
  it('accepts messages or a prompt, with optional temperature, max_tokens and timeout', () => {
    expect(checkLlmNode(node('l', 'llm', { model_id: 'm', prompt: 'Say {{fetch.body}}' }), defn)).toEqual([]);
    const full = node('l', 'llm', {
      model_id: 'm',
      messages: [{ role: 'system', content: 'x' }],
      temperature: 2,
      max_tokens: 10,
      timeout_ms: 1000,
    });
    expect(checkLlmNode(full, defn)).toEqual([]);
    expect(llmTimeoutMs(full)).toBe(1000);
    expect(llmTimeoutMs(node('l', 'llm', {}))).toBe(120_000);
  });

  it('names every bad field', () => {
    expect(
      checkLlmNode(
        node('l', 'llm', {
          messages: [{ role: 'tool', content: 'x' }],
          temperature: 3,
          max_tokens: 0,
          timeout_ms: 300_001,
        }),
        defn,
      ),
    ).toEqual([
      'data.model_id must be a model id',
      'data.messages.0 must be {role: system|user|assistant, content: string}',
      'data.temperature must be a number from 0 to 2',
      'data.max_tokens must be an integer from 1 to 1000000',
      'data.timeout_ms must be an integer from 1 to 300000',
    ]);
    expect(checkLlmNode(node('l', 'llm', { model_id: 'm' }), defn)).toEqual([
      'data.messages or data.prompt is required',
    ]);
  });

  it('joins chat/completions to the base URL with one slash', () => {
    expect(chatCompletionUrl('http://h:1/v1/')).toBe('http://h:1/v1/chat/completions');
    expect(chatCompletionUrl('https://h/openai/v1?api-version=2')).toBe(
      'https://h/openai/v1/chat/completions?api-version=2',
    );
  });
});

describe('SSE parser', () => {
  it('frames events across arbitrary chunk boundaries, CRLF included, ignoring comments and fields', () => {
    const events: string[] = [];
    const parser = new SseParser((data) => events.push(data));
    const stream =
      ': keep-alive\r\nevent: x\r\ndata: {"a":1}\r\n\r\ndata: line1\ndata:line2\n\nid: 3\ndata: [DONE]\n\n';
    const bytes = new TextEncoder().encode(stream);
    for (let i = 0; i < bytes.length; i += 3) parser.push(bytes.slice(i, i + 3));
    parser.end();
    expect(events).toEqual(['{"a":1}', 'line1\nline2', '[DONE]']);
  });

  it('keeps multi-byte characters split between chunks, and flushes a last event without its blank line', () => {
    const events: string[] = [];
    const parser = new SseParser((data) => events.push(data));
    const bytes = new TextEncoder().encode('data: ☃ snow');
    parser.push(bytes.slice(0, 7));
    parser.push(bytes.slice(7));
    parser.end();
    expect(events).toEqual(['☃ snow']);
  });
});

describe('text batcher', () => {
  it('writes in order, joining what arrives while a write is in flight', async () => {
    const written: string[] = [];
    let release: () => void = () => undefined;
    const batcher = new TextBatcher(async (chunk) => {
      written.push(chunk);
      if (written.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    batcher.push('a');
    batcher.push('b');
    batcher.push('c');
    release();
    await batcher.flushed();
    batcher.push('d');
    await batcher.flushed();
    expect(written).toEqual(['a', 'bc', 'd']);
  });

  it('stops at the first failed write and rethrows it', async () => {
    let failures = 0;
    const batcher = new TextBatcher(
      async (chunk) => {
        if (chunk === 'x') throw new Error('lease lost');
      },
      () => (failures += 1),
    );
    batcher.push('x');
    batcher.push('y');
    await expect(batcher.flushed()).rejects.toThrow('lease lost');
    batcher.push('z');
    await expect(batcher.flushed()).rejects.toThrow('lease lost');
    expect(failures).toBe(1);
  });
});
