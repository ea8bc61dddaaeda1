import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got, as it arrived. */
export interface ReceivedRequest {
  method: string;
  /** Path with the query string. */
  path: string;
  headers: IncomingMessage['headers'];
  /** The body bytes as sent (verify signatures over this, not over re-serialised JSON). */
  body: Buffer;
  /** When the request had fully arrived (epoch ms). */
  receivedAt: number;
}

/** One scripted answer; omitted fields: 200, no headers, empty body, no delay. */
export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | object;
  /** Waits this long before answering (a slow receiver; time-outs). */
  delayMs?: number;
}

export interface HttpReceiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  readonly requests: ReceivedRequest[];
  /** Answers the next requests in this order; when the script runs out, `fallback` answers. */
  script(...answers: ScriptedAnswer[]): void;
  /** Resolves once `count` requests have arrived (already or later); fails after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/**
 * A local HTTP endpoint for outbound calls under test (webhooks, model APIs): records every request
 * and answers from a script, e.g. `script({ status: 500 }, { status: 200 })`,
 * `script({ status: 429, headers: { 'retry-after': '1' } })` or `script({ delayMs: 5_000 })`.
 */
export async function startHttpReceiver(fallback: ScriptedAnswer = {}): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  const queue: ScriptedAnswer[] = [];
  const waiters = new Set<() => void>();
  const pending = new Set<NodeJS.Timeout>();

  const answer = (res: ServerResponse, scripted: ScriptedAnswer) => {
    const body =
      scripted.body === undefined
        ? ''
        : typeof scripted.body === 'string'
          ? scripted.body
          : JSON.stringify(scripted.body);
    const headers = { ...scripted.headers };
    if (
      typeof scripted.body === 'object' &&
      !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')
    )
      headers['content-type'] = 'application/json';
    res.writeHead(scripted.status ?? 200, headers);
    res.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        receivedAt: Date.now(),
      });
      const scripted = queue.shift() ?? fallback;
      for (const wake of waiters) wake();
      if (!scripted.delayMs) return answer(res, scripted);
      const timer = setTimeout(() => {
        pending.delete(timer);
        if (!res.destroyed) answer(res, scripted);
      }, scripted.delayMs);
      pending.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...answers) => {
      queue.push(...answers);
    },
    waitForRequests(count, timeoutMs = 15_000) {
      if (requests.length >= count) return Promise.resolve(requests.slice(0, count));
      return new Promise((resolve, reject) => {
        const wake = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(requests.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`${requests.length} of ${count} requests within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of pending) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
