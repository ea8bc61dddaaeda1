import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { clip, permanentFailure, SendFailure, transientFailure } from './send-failure.js';

export interface HttpTarget {
  /** Refuse loopback, private and link-local destinations (production); tests allow them. */
  allowPrivateNetworks: boolean;
  timeoutMs: number;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** Cloud metadata endpoints are refused even when private networks are allowed. */
const METADATA_HOSTS = new Set([
  '169.254.169.254',
  'fd00:ec2::254',
  'metadata.google.internal',
  '100.100.100.200',
]);

function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a = 0, b = 0] = address.split('.').map(Number);
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:')) return isPrivateAddress(lower.slice(7));
  return lower === '::1' || lower === '::' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower);
}

/**
 * Refuses URLs a user-configured destination must not reach: other schemes, cloud metadata
 * addresses always, loopback/private/link-local unless allowed. The host is resolved here; a
 * rebinding between this check and the connect is the shared outbound guard's job once it lands.
 */
export async function checkDestination(rawUrl: string, target: HttpTarget): Promise<URL> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw permanentFailure('delivery_url_refused', { reason: 'invalid URL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw permanentFailure('delivery_url_refused', { reason: `scheme ${url.protocol}` });
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (METADATA_HOSTS.has(host))
    throw permanentFailure('delivery_url_refused', { reason: 'metadata address' });
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch (err) {
    throw transientFailure('delivery_connection_failed', { reason: clip(String((err as Error).message)) });
  }
  for (const address of addresses) {
    if (METADATA_HOSTS.has(address))
      throw permanentFailure('delivery_url_refused', { reason: 'metadata address' });
    if (!target.allowPrivateNetworks && isPrivateAddress(address)) {
      throw permanentFailure('delivery_url_refused', { reason: 'private address' });
    }
  }
  return url;
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
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers: init.headers,
      ...(init.body === undefined ? {} : { body: init.body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(target.timeoutMs),
    });
  } catch (err) {
    const error = err as Error & { cause?: { code?: string; message?: string } };
    if (error.name === 'TimeoutError' || error.name === 'AbortError') {
      throw transientFailure('delivery_timeout', { seconds: Math.round(target.timeoutMs / 1000) });
    }
    const reason = error.cause?.code ?? error.cause?.message ?? error.message;
    throw transientFailure('delivery_connection_failed', { reason: clip(String(reason)) });
  }
  let text = '';
  try {
    text = await response.text();
  } catch (err) {
    throw transientFailure('delivery_connection_failed', { reason: clip(String((err as Error).message)) });
  }
  if (response.status >= 200 && response.status < 300)
    return { status: response.status, headers: response.headers, text };
  const params = { status: response.status, detail: clip(text) };
  if (isTransientStatus(response.status)) {
    throw transientFailure('delivery_http_status', params, retryAfterMs(response.headers.get('retry-after')));
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
