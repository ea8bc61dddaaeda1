import type { IncomingHttpHeaders } from 'node:http';
import { OutboundBlockedError, redactUrl } from './errors.js';
import { urlOrigin } from './origin.js';

/** What one hop sends; the redirect loop derives the next hop's from it. */
export interface HopState {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

export function isRedirect(status: number, headers: IncomingHttpHeaders): boolean {
  return REDIRECT_STATUSES.has(status) && typeof headers.location === 'string' && headers.location !== '';
}

// Headers the guard owns: a caller-set Host could aim the request at another virtual host than
// the origin that was checked; lengths and framing follow the body the guard actually sends.
const OWNED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'accept-encoding',
  'proxy-authorization',
]);

/** The only caller headers that survive a redirect to another origin (no credentials of any kind). */
const CROSS_ORIGIN_SAFE: ReadonlySet<string> = new Set([
  'accept',
  'accept-language',
  'user-agent',
  'content-type',
]);

/**
 * The caller's headers, lowercased, minus the ones the guard owns. `accept-encoding: identity`
 * makes the size cap apply to the bytes the caller will read (nothing is decompressed later).
 */
export function requestHeaders(input: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input)) {
    const key = name.toLowerCase();
    if (!OWNED_HEADERS.has(key)) headers[key] = value;
  }
  headers['accept-encoding'] = 'identity';
  headers.connection = 'close';
  return headers;
}

/**
 * The hop after a redirect, as fetch does it: 303 (and 301/302 after a POST) become a GET without
 * a body; 307/308 keep method and body. Leaving the origin drops every header that could carry
 * a credential (Authorization, Cookie, API-key headers…), for the rest of the chain.
 * Userinfo in the Location is never sent (the guard sends no URL credentials at all).
 */
export function nextHop(current: HopState, status: number, location: string): HopState {
  let url: URL;
  try {
    url = new URL(location, current.url);
  } catch {
    throw new OutboundBlockedError('invalid_url', 'redirect to a malformed Location', {
      url: redactUrl(current.url),
    });
  }
  const toGet =
    (status === 303 && current.method !== 'HEAD') ||
    ((status === 301 || status === 302) && current.method === 'POST');
  let headers = { ...current.headers };
  if (toGet) delete headers['content-type'];
  if (urlOrigin(url) !== urlOrigin(current.url)) {
    headers = Object.fromEntries(
      Object.entries(headers).filter(([name]) => CROSS_ORIGIN_SAFE.has(name) || OWNED_HEADERS.has(name)),
    );
  }
  return { url, method: toGet ? 'GET' : current.method, headers, body: toGet ? undefined : current.body };
}
