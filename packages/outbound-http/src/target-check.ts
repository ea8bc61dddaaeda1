import { refuseAddress, systemResolver } from './address-policy.js';
import { isMetadataHostname } from './address-ranges.js';
import { OutboundBlockedError, redactUrl } from './errors.js';
import { parseIp, stripBrackets } from './ip-address.js';
import {
  isSupportedScheme,
  loadAllowlist,
  normalizeHost,
  urlOrigin,
  type AllowlistMatcher,
} from './origin.js';
import type { OutboundPolicy } from './policy.js';

/**
 * The checks that need no DNS, for one hop. Returns whether private ranges may be reached (the
 * origin is allowlisted); the resolved address itself is checked by the guarded lookup.
 */
export function checkTarget(url: URL, allowlist: AllowlistMatcher, requireAllowlisted: boolean): boolean {
  const shown = redactUrl(url);
  if (!isSupportedScheme(url.protocol)) {
    throw new OutboundBlockedError(
      'unsupported_scheme',
      `only http and https are allowed, not ${url.protocol}`,
      { url: shown },
    );
  }
  const origin = urlOrigin(url);
  const host = normalizeHost(url.hostname);
  if (origin === null || host === null)
    throw new OutboundBlockedError('invalid_url', `no usable host in ${shown}`, { url: shown });
  if (isMetadataHostname(host)) {
    throw new OutboundBlockedError('metadata_address', `${host} is a cloud metadata host`, { url: shown });
  }
  // An IP literal never reaches the lookup, so its address is checked here; the ranges refused
  // whatever the allowlist says come first, so the reason names them.
  const literal = parseIp(host) ? stripBrackets(host) : null;
  const alwaysRefused = literal === null ? null : refuseAddress(literal, true, shown);
  if (alwaysRefused) throw alwaysRefused;
  const allowlisted = allowlist.has(origin);
  if (requireAllowlisted && !allowlisted) {
    throw new OutboundBlockedError('not_allowlisted', `${origin} is not in the endpoint allowlist`, {
      url: shown,
    });
  }
  const refusal = literal === null ? null : refuseAddress(literal, allowlisted, shown);
  if (refusal) throw refusal;
  return allowlisted;
}

/**
 * Checks a URL as the guard would before a request, DNS included, without sending anything:
 * for early feedback (say, when an admin saves a base URL). It proves nothing about later: a name
 * can resolve differently by the time of the request, which is why the request checks again at
 * connect time. Throws the same `OutboundBlockedError` the request would.
 */
export async function checkUrl(input: string | URL, policy: OutboundPolicy): Promise<void> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new OutboundBlockedError('invalid_url', 'not an absolute URL');
  }
  const allowlist = await loadAllowlist(policy.allowlist);
  const privateAllowed = checkTarget(url, allowlist, policy.requireAllowlisted ?? true);
  const host = stripBrackets(url.hostname);
  if (parseIp(host)) return;
  const answers = await (policy.resolve ?? systemResolver)(host);
  for (const answer of answers) {
    const refusal = refuseAddress(answer.address, privateAllowed, redactUrl(url));
    if (refusal) throw refusal;
  }
}
