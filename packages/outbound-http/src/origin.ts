import { parseIp } from './ip-address.js';

/**
 * Origins the way the allowlist compares them: `scheme://host[:port]`, scheme and host lowercased,
 * the host in punycode (the WHATWG URL parser does IDNA and folds decimal/octal/hex IPv4 forms),
 * one trailing dot dropped, IPv6 compressed in brackets, the scheme's default port left out.
 */

export type OutboundScheme = 'http:' | 'https:';
const SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:']);

export function isSupportedScheme(protocol: string): protocol is OutboundScheme {
  return SCHEMES.has(protocol);
}

/** `url.hostname` in comparable form, or null when nothing usable is left. */
export function normalizeHost(hostname: string): string | null {
  const host = hostname.toLowerCase();
  if (host.startsWith('[') || parseIp(host)) return host;
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === '' || name.split('.').some((label) => label === '')) return null;
  return name;
}

function originFromUrl(url: URL): string | null {
  if (!isSupportedScheme(url.protocol)) return null;
  const host = normalizeHost(url.hostname);
  if (host === null || url.port === '0') return null;
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`;
}

function tryUrl(input: string | URL): URL | null {
  if (input instanceof URL) return input;
  try {
    return new URL(input);
  } catch {
    return null;
  }
}

/**
 * The normalized origin of any http(s) URL; path, query, fragment and credentials are ignored.
 * Null for anything that is not an absolute http(s) URL with a usable host.
 */
export function urlOrigin(input: string | URL): string | null {
  if (typeof input === 'string' && !/^https?:\/\//i.test(input.trim())) return null;
  const url = tryUrl(typeof input === 'string' ? input.trim() : input);
  return url ? originFromUrl(url) : null;
}

/**
 * An allowlist entry → its normalized origin, or null when the entry is not exactly an origin
 * (a path other than `/`, a query, a fragment or credentials make it something else).
 */
export function parseOrigin(entry: string): string | null {
  const text = entry.trim();
  // The URL parser would quietly drop tabs and newlines; an entry that has them is no origin.
  if (hasControlOrSpace(text) || !/^https?:\/\/[^/?#]+\/?$/i.test(text)) return null;
  const url = tryUrl(text);
  if (!url || url.username || url.password || url.pathname !== '/') return null;
  return originFromUrl(url);
}

function hasControlOrSpace(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x20 || code === 0x7f || /\s/u.test(char)) return true;
  }
  return false;
}

export function isOrigin(entry: string): boolean {
  return parseOrigin(entry) !== null;
}

/** Like `parseOrigin`, but throws a RangeError naming the entry when it is not an origin. */
export function normalizeOrigin(entry: string): string {
  const origin = parseOrigin(entry);
  if (origin === null) throw new RangeError(`not an origin (scheme://host[:port]): ${entry}`);
  return origin;
}

/** The allowlist as the caller keeps it: a list, or a function that reads the current one. */
export type AllowlistSource = readonly string[] | (() => readonly string[] | Promise<readonly string[]>);

export interface AllowlistMatcher {
  has(origin: string): boolean;
}

/** Entries that are not origins are skipped: they can never match a request. */
export function createAllowlist(entries: readonly string[]): AllowlistMatcher {
  const origins = new Set<string>();
  for (const entry of entries) {
    const origin = parseOrigin(entry);
    if (origin !== null) origins.add(origin);
  }
  return { has: (origin) => origins.has(origin) };
}

export async function loadAllowlist(source: AllowlistSource): Promise<AllowlistMatcher> {
  const entries = typeof source === 'function' ? await source() : source;
  return createAllowlist(entries);
}

/** Whether the URL's origin is one of the allowlist's entries (entries are normalized first). */
export function isUrlAllowlisted(url: string | URL, entries: readonly string[]): boolean {
  const origin = urlOrigin(url);
  return origin !== null && createAllowlist(entries).has(origin);
}
