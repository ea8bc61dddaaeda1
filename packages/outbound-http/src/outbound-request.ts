import type { IncomingHttpHeaders } from 'node:http';
import { guardedLookup, systemResolver } from './address-policy.js';
import { OutboundBlockedError, redactUrl } from './errors.js';
import { loadAllowlist } from './origin.js';
import { OUTBOUND_DEFAULTS, type OutboundPolicy } from './policy.js';
import { isRedirect, nextHop, requestHeaders, type HopState } from './redirects.js';
import { startOutboundTelemetry, type OutboundPurpose } from './request-telemetry.js';
import { sendHop } from './send-hop.js';
import { checkTarget } from './target-check.js';

export interface OutboundRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Aborting it destroys the request: `OutboundHttpError` with reason `aborted`. */
  signal?: AbortSignal;
  /**
   * Called with each chunk of the final response's body as it arrives (a streamed answer read
   * while it is produced); the body is still collected, under the same size cap.
   */
  onData?: (chunk: Buffer, response: { status: number; headers: IncomingHttpHeaders }) => void;
  /** What the request is for (metric label `purpose`, span attribute); default `other`. */
  purpose?: OutboundPurpose;
  /**
   * Send the W3C `traceparent` of the request's span to the target. Off by default: a
   * user-configured URL must not learn our trace ids; only for servers we run ourselves.
   */
  propagateTrace?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The URL that answered, after redirects (credentials removed). */
  url: string;
  /** Every redirect target followed, in order. */
  redirects: string[];
  body: Buffer;
  text(): string;
  /** Parses the body as JSON; throws a SyntaxError when it is not. */
  json<T = unknown>(): T;
}

/**
 * Sends one request to a user-configured URL under the guard's rules: allowlisted origin, checked
 * address at connect time, each redirect hop checked again, timeouts and a body cap.
 * Throws `OutboundBlockedError` (refusals and limits) or `OutboundHttpError` (`connection_failed`).
 */
export async function outboundRequest(
  input: string | URL,
  init: OutboundRequestInit,
  policy: OutboundPolicy,
): Promise<OutboundResponse> {
  const method = (init.method ?? 'GET').toUpperCase();
  const telemetry = startOutboundTelemetry({
    url: safeUrl(input),
    method,
    purpose: init.purpose ?? 'other',
    headers: init.headers ?? {},
    propagateTrace: init.propagateTrace === true,
  });
  try {
    const response = await sendGuarded(input, { ...init, method, headers: telemetry.headers }, policy);
    telemetry.succeeded(response.status);
    return response;
  } catch (error) {
    telemetry.failed(error);
    throw error;
  }
}

async function sendGuarded(
  input: string | URL,
  init: OutboundRequestInit,
  policy: OutboundPolicy,
): Promise<OutboundResponse> {
  const limits = { ...OUTBOUND_DEFAULTS, ...definedOnly(policy) };
  const allowlist = await loadAllowlist(policy.allowlist);
  const requireAllowlisted = policy.requireAllowlisted ?? true;
  const resolve = policy.resolve ?? systemResolver;
  const deadline = Date.now() + limits.timeoutMs;
  const body = typeof init.body === 'string' ? Buffer.from(init.body) : init.body;
  let state: HopState = {
    url: parseUrl(input),
    method: (init.method ?? 'GET').toUpperCase(),
    headers: requestHeaders(init.headers ?? {}),
    body,
  };
  const redirects: string[] = [];

  for (;;) {
    const privateAllowed = checkTarget(state.url, allowlist, requireAllowlisted);
    let refusal: OutboundBlockedError | undefined;
    const hop = await sendHop({
      ...state,
      headers: withLength(state.headers, state.body),
      lookup: guardedLookup({
        resolve,
        privateAllowed,
        url: redactUrl(state.url),
        onRefused: (e) => (refusal = e),
      }),
      deadline,
      totalTimeoutMs: limits.timeoutMs,
      connectTimeoutMs: limits.connectTimeoutMs,
      maxResponseBytes: limits.maxResponseBytes,
      ca: policy.ca,
      takeRefusal: () => refusal,
      wantsBody: (status, headers) => !isRedirect(status, headers),
      signal: init.signal,
      onData: init.onData,
    });
    if (hop.body !== null) return toResponse(hop.status, hop.headers, hop.body, state.url, redirects);
    if (redirects.length >= limits.maxRedirects) {
      throw new OutboundBlockedError('too_many_redirects', `more than ${limits.maxRedirects} redirects`, {
        url: redactUrl(state.url),
      });
    }
    state = nextHop(state, hop.status, String(hop.headers.location));
    redirects.push(redactUrl(state.url));
  }
}

/** Binds a policy once; `request` then takes only what varies per call. */
export function createOutboundHttp(policy: OutboundPolicy): {
  request: (url: string | URL, init?: OutboundRequestInit) => Promise<OutboundResponse>;
} {
  return { request: (url, init = {}) => outboundRequest(url, init, policy) };
}

function safeUrl(input: string | URL): URL | undefined {
  try {
    return new URL(input);
  } catch {
    return undefined;
  }
}

function parseUrl(input: string | URL): URL {
  try {
    return new URL(input);
  } catch {
    throw new OutboundBlockedError('invalid_url', 'not an absolute URL');
  }
}

function withLength(headers: Record<string, string>, body: Uint8Array | undefined): Record<string, string> {
  return body === undefined ? headers : { ...headers, 'content-length': String(body.byteLength) };
}

function toResponse(
  status: number,
  headers: IncomingHttpHeaders,
  body: Buffer,
  url: URL,
  redirects: string[],
): OutboundResponse {
  return {
    status,
    headers,
    url: redactUrl(url),
    redirects,
    body,
    text: () => body.toString('utf8'),
    json: <T>() => JSON.parse(body.toString('utf8')) as T,
  };
}

function definedOnly(policy: OutboundPolicy): Partial<Record<keyof typeof OUTBOUND_DEFAULTS, number>> {
  const picked: Partial<Record<keyof typeof OUTBOUND_DEFAULTS, number>> = {};
  for (const key of Object.keys(OUTBOUND_DEFAULTS) as (keyof typeof OUTBOUND_DEFAULTS)[]) {
    const value = policy[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) picked[key] = value;
  }
  return picked;
}
