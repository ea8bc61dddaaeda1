import {
  OutboundHttpError,
  outboundRequest,
  urlOrigin,
  type OutboundPolicy,
  type OutboundResponse,
} from '@platform/outbound-http';
import {
  clip,
  permanentFailure,
  SendFailure,
  transientFailure,
} from '../../domain/delivery/delivery-ports.js';
import type { HttpTarget } from '../../domain/delivery/delivery-ports.js';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * A destination URL as configured: parsed, http(s) only. Where it may connect to is decided at
 * connect time by the shared outbound guard (`@platform/outbound-http`, docs/outbound-http.md):
 * public addresses only, cloud metadata and link-local never, each resolved address checked on the
 * socket it is used for (no DNS-rebinding window).
 */
export async function checkDestination(rawUrl: string, _target: HttpTarget): Promise<URL> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw permanentFailure('delivery_url_refused', { reason: 'invalid URL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw permanentFailure('delivery_url_refused', { reason: `scheme ${url.protocol}` });
  }
  return Promise.resolve(url);
}

/**
 * The guard's rules for a channel destination. Chat services and webhook receivers are public: a
 * private origin is reachable only where the operator allowed private networks, and then only the
 * destination's own origin. Redirects are refused (a configured URL must not bounce us elsewhere).
 */
function destinationPolicy(url: URL, target: HttpTarget): OutboundPolicy {
  const origin = urlOrigin(url);
  return {
    allowlist: target.allowPrivateNetworks && origin ? [origin] : [],
    requireAllowlisted: false,
    maxRedirects: 0,
    timeoutMs: target.timeoutMs,
    connectTimeoutMs: Math.min(5_000, target.timeoutMs),
  };
}

/** The guard's refusals and limits as delivery failures: policy and redirects are final, the wire is not. */
function guardFailure(err: OutboundHttpError, target: HttpTarget): SendFailure {
  switch (err.reason) {
    case 'timeout':
      return transientFailure('delivery_timeout', { seconds: Math.round(target.timeoutMs / 1000) });
    case 'connection_failed':
      return transientFailure('delivery_connection_failed', { reason: clip(err.message) });
    case 'too_many_redirects':
      return permanentFailure('delivery_url_refused', { reason: 'redirect' });
    case 'response_too_large':
      return permanentFailure('delivery_url_refused', { reason: 'response too large' });
    case 'metadata_address':
      return permanentFailure('delivery_url_refused', { reason: 'metadata address' });
    case 'blocked_address':
    case 'not_allowlisted':
      return permanentFailure('delivery_url_refused', { reason: 'private address' });
    default:
      return permanentFailure('delivery_url_refused', { reason: clip(err.message) });
  }
}

function toHeaders(raw: OutboundResponse['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/** `Retry-After` as milliseconds (delta-seconds or an HTTP date), capped at one day. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return Math.min(Math.max(ms, 0), 24 * 3600_000);
}

/** 408, 425, 429 and 5xx are worth another try; every other non-2xx is the receiver's final word. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/**
 * One HTTP request to a checked destination. Network failures and timeouts are transient; redirects
 * are not followed (a user-configured URL must not bounce us elsewhere) and count as rejections.
 * Non-2xx answers become failures here; 2xx come back for the vendor's own verdict.
 */
export async function sendHttp(
  url: URL,
  init: { method: 'POST' | 'GET'; headers: Record<string, string>; body?: string | Buffer },
  target: HttpTarget,
): Promise<HttpAnswer> {
  let response: OutboundResponse;
  try {
    response = await outboundRequest(
      url,
      { method: init.method, headers: init.headers, ...(init.body === undefined ? {} : { body: init.body }) },
      destinationPolicy(url, target),
    );
  } catch (err) {
    if (err instanceof OutboundHttpError) throw guardFailure(err, target);
    throw transientFailure('delivery_connection_failed', { reason: clip(String((err as Error).message)) });
  }
  const text = response.text();
  const headers = toHeaders(response.headers);
  if (response.status >= 200 && response.status < 300) return { status: response.status, headers, text };
  const params = { status: response.status, detail: clip(text) };
  if (isTransientStatus(response.status)) {
    throw transientFailure('delivery_http_status', params, retryAfterMs(headers.get('retry-after')));
  }
  throw permanentFailure('delivery_http_status', params);
}

/** Parses a vendor's JSON answer; a 2xx that is not JSON is a rejection, never a success. */
export function vendorJson(answer: HttpAnswer, channel: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(answer.text);
    if (typeof parsed === 'object' && parsed !== null) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw permanentFailure('delivery_vendor_rejected', {
    channel,
    code: answer.status,
    detail: clip(answer.text),
  });
}

export { SendFailure };
