import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { OutboundBlockedError, OutboundHttpError, redactUrl } from './errors.js';
import { stripBrackets } from './ip-address.js';

/** One HTTP exchange, no redirects: the redirect loop calls this once per hop. */
export interface HopRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
  lookup: LookupFunction;
  /** Epoch ms by which the whole request (every hop, the body included) must be done. */
  deadline: number;
  totalTimeoutMs: number;
  connectTimeoutMs: number;
  maxResponseBytes: number;
  /** Extra trusted CA certificates (PEM), for private endpoints with their own CA. */
  ca: string | Buffer | readonly (string | Buffer)[] | undefined;
  /** A refusal the guarded lookup recorded, preferred over whatever error the socket reports. */
  takeRefusal: () => OutboundBlockedError | undefined;
  /** Whether to read this response's body (a redirect's body is never read). */
  wantsBody: (status: number, headers: http.IncomingHttpHeaders) => boolean;
  signal?: AbortSignal | undefined;
  onData?:
    ((chunk: Buffer, response: { status: number; headers: http.IncomingHttpHeaders }) => void) | undefined;
}

export interface HopResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer | null;
}

export function sendHop(hop: HopRequest): Promise<HopResponse> {
  return new Promise<HopResponse>((resolve, reject) => {
    const url = redactUrl(hop.url);
    const remaining = hop.deadline - Date.now();
    const timeoutError = (what: string): OutboundBlockedError =>
      new OutboundBlockedError('timeout', `${what} timed out for ${url}`, { url });
    if (remaining <= 0) {
      reject(timeoutError(`request (${hop.totalTimeoutMs} ms in all)`));
      return;
    }
    const abortedError = () => new OutboundHttpError('aborted', `request to ${url} aborted`, { url });
    if (hop.signal?.aborted) {
      reject(abortedError());
      return;
    }
    const transport = hop.url.protocol === 'https:' ? https : http;
    // A fresh agent per hop (`agent: false`): no pooled socket from another origin is reused,
    // and no proxy is consulted; `lookup` is where the address is checked.
    let request: http.ClientRequest;
    try {
      request = transport.request({
        protocol: hop.url.protocol,
        hostname: stripBrackets(hop.url.hostname),
        port: hop.url.port || (hop.url.protocol === 'https:' ? 443 : 80),
        path: `${hop.url.pathname}${hop.url.search}`,
        method: hop.method,
        headers: hop.headers,
        lookup: hop.lookup,
        agent: false,
        ...(hop.ca !== undefined ? { ca: hop.ca as string } : {}),
      });
    } catch (error) {
      // Node validates method and header values up front (a key pasted with a newline, say).
      const message = error instanceof Error ? error.message : String(error);
      reject(new OutboundHttpError('invalid_request', `${message} (${url})`, { url, cause: error }));
      return;
    }

    let settled = false;
    let connectTimer: NodeJS.Timeout | undefined;
    const totalTimer = setTimeout(
      () => fail(timeoutError(`request (${hop.totalTimeoutMs} ms in all)`)),
      remaining,
    );
    const onAbort = (): void => fail(abortedError());
    hop.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(totalTimer);
      clearTimeout(connectTimer);
      hop.signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const fail = (error: OutboundHttpError): void => {
      if (!finish()) return;
      request.destroy();
      reject(error);
    };
    const failOnWire = (error: Error): void => {
      const refusal = hop.takeRefusal();
      if (refusal) fail(refusal);
      else if (error instanceof OutboundHttpError) fail(error);
      else
        fail(new OutboundHttpError('connection_failed', `${error.message} (${url})`, { url, cause: error }));
    };

    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(
        () => fail(timeoutError(`connect (${hop.connectTimeoutMs} ms)`)),
        hop.connectTimeoutMs,
      );
      socket.once('connect', () => clearTimeout(connectTimer));
    });
    request.on('error', failOnWire);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const headers = response.headers;
      if (!hop.wantsBody(status, headers)) {
        response.destroy();
        if (finish()) resolve({ status, headers, body: null });
        request.destroy();
        return;
      }
      const tooLarge = (): OutboundBlockedError =>
        new OutboundBlockedError(
          'response_too_large',
          `response from ${url} is larger than the ${hop.maxResponseBytes}-byte limit`,
          { url },
        );
      const declared = Number(headers['content-length']);
      if (Number.isFinite(declared) && declared > hop.maxResponseBytes) {
        fail(tooLarge());
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > hop.maxResponseBytes) fail(tooLarge());
        else {
          chunks.push(chunk);
          try {
            if (!settled) hop.onData?.(chunk, { status, headers });
          } catch (error) {
            // A throwing callback must not become an uncaught exception in the socket's handler.
            fail(new OutboundHttpError('aborted', `onData failed for ${url}`, { url, cause: error }));
          }
        }
      });
      response.on('end', () => {
        if (finish()) resolve({ status, headers, body: Buffer.concat(chunks) });
      });
      response.on('close', () => {
        if (!response.complete) failOnWire(new Error('connection closed before the response was complete'));
      });
      response.on('error', failOnWire);
    });
    request.end(hop.body);
  });
}
