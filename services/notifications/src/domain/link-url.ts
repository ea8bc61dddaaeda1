import { BusinessError } from '@platform/errors';

/** Spec "notification field sizes": link_url at most 500 characters. */
export const LINK_URL_MAX_LENGTH = 500;

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

/** A create request's `link_url`: null when empty, else safe or 1001 naming the field. */
export function readLinkUrl(value: string): string | null {
  if (!value) return null;
  if (!isSafeLinkUrl(value)) {
    throw BusinessError.validation({
      link_url: [
        `must be an http(s) URL or a path starting with / (at most ${LINK_URL_MAX_LENGTH} characters)`,
      ],
    });
  }
  return value;
}
