/** Spec "notification field sizes": link_url at most 500 characters. */
export const LINK_URL_MAX_LENGTH = 500;

export const LINK_URL_RULE = `must be an http(s) URL or a path starting with / (at most ${LINK_URL_MAX_LENGTH} characters)`;

/** Space, C0 and C1 controls, DEL, and any other whitespace (NBSP, line separators...). */
function hasSpaceOrControl(value: string): boolean {
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || /\s/u.test(ch)) return true;
  }
  return false;
}

/**
 * Whether a notification's link is safe to put behind a click: an absolute `http(s)` URL with a
 * host, or a path on the platform's own site (`/…`, never `//host` or `/\host`, which browsers
 * read as another host). Whitespace and control characters are refused anywhere: browsers drop
 * them (` javascript:`, `java\tscript:`), so what was checked would not be what is opened. Every
 * other scheme (`javascript:`, `data:`, `vbscript:`, `file:` ...) is refused in any case.
 */
export function isSafeLinkUrl(value: string): boolean {
  if (value.length > LINK_URL_MAX_LENGTH) return false;
  if (hasSpaceOrControl(value)) return false;
  if (value.startsWith('/')) return !/^\/[/\\]/.test(value);
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * `isSafeLinkUrl` as the JSON Schema pattern the OpenAPI document carries ("" = no link). A
 * pattern has no flags, so it names the scheme in lower case and cannot parse a URL: the function
 * is what runs; this states the same rule for clients and the API fuzzer.
 */
export const SAFE_LINK_URL_PATTERN =
  '^(?:(?:https?://[^/?#\\\\\\s\\u0000-\\u0020\\u007f-\\u009f]+|/(?![/\\\\]))[^\\s\\u0000-\\u0020\\u007f-\\u009f]*)?$';
