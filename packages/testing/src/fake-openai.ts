import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeChatRequest {
  authorization: string | undefined;
  body: Record<string, unknown>;
}

export interface FakeOpenAi {
  origin: string;
  /** The base URL a model row points at (`<origin>/v1`). */
  baseUrl: string;
  requests: FakeChatRequest[];
  /** Held: the server sends the usage chunk and `[DONE]` only after `release()`. */
  hold(): void;
  release(): void;
  /**
   * Lockstep: after each delta the server waits for `advance()` before sending the next one (and
   * the usage chunk), so a test can prove each delta was handled before the answer went on.
   */
  lockstep(on: boolean): void;
  advance(): void;
  close(): Promise<void>;
}

/** Why a request is not the streaming chat completion an llm node must send (null = it is). */
function shapeProblem(
  apiKey: string,
  model: string,
  authorization: string | undefined,
  body: Record<string, unknown>,
): string | null {
  if (authorization !== `Bearer ${apiKey}`) return 'authorization';
  if (body.model !== model) return 'model';
  if (body.stream !== true) return 'stream';
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  if (options?.include_usage !== true) return 'stream_options.include_usage';
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return 'messages';
  if (
    !messages.every(
      (m: { role?: unknown; content?: unknown }) =>
        typeof m.role === 'string' && typeof m.content === 'string',
    )
  ) {
    return 'messages';
  }
  return null;
}

/**
 * A local OpenAI-compatible chat endpoint that checks the request shape (key, model, stream,
 * include_usage, messages) and streams `deltas` as SSE chunks, then a usage chunk and `[DONE]`.
 */
export async function startFakeOpenAi(options: {
  apiKey: string;
  model: string;
  deltas: string[];
  usage: Record<string, number>;
  /** Pause between deltas (default 10 ms; 0 sends them back to back). */
  deltaDelayMs?: number;
}): Promise<FakeOpenAi> {
  const deltaDelayMs = options.deltaDelayMs ?? 10;
  const requests: FakeChatRequest[] = [];
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => undefined;
  let stepping = false;
  let step: Promise<void> = Promise.resolve();
  let advance: () => void = () => undefined;
  const nextStep = () => {
    step = new Promise((resolve) => (advance = resolve));
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(raw || '{}') as Record<string, unknown>;
        requests.push({ authorization: req.headers.authorization, body });
        const problem =
          req.method === 'POST' && req.url === '/v1/chat/completions'
            ? shapeProblem(options.apiKey, options.model, req.headers.authorization, body)
            : 'path';
        if (problem) {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: `bad ${problem}` } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const send = (event: unknown) => res.write(`data: ${JSON.stringify(event)}\n\n`);
        for (const delta of options.deltas) {
          if (stepping) nextStep();
          send({
            id: 'c1',
            object: 'chat.completion.chunk',
            choices: [{ index: 0, delta: { content: delta } }],
          });
          if (stepping) await step;
          else if (deltaDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, deltaDelayMs));
        }
        await gate;
        send({ id: 'c1', object: 'chat.completion.chunk', choices: [], usage: options.usage });
        res.end('data: [DONE]\n\n');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    requests,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release: () => open(),
    lockstep(on) {
      stepping = on;
    },
    advance: () => advance(),
    async close() {
      open();
      advance();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
