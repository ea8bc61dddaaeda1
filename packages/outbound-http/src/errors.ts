import type { AddressRange } from './address-ranges.js';

/** The request was refused before anything reached the target (its URL or address broke the rules). */
export type OutboundPolicyReason =
  'invalid_url' | 'unsupported_scheme' | 'not_allowlisted' | 'blocked_address' | 'metadata_address';

/** The request started but went past one of the guard's limits. */
export type OutboundLimitReason = 'too_many_redirects' | 'response_too_large' | 'timeout';

export type OutboundBlockedReason = OutboundPolicyReason | OutboundLimitReason;

/**
 * `connection_failed`: anything that went wrong on the wire (refused connection, TLS failure,
 * reset). `invalid_request`: Node refused the request itself (a header value with a newline…).
 * `aborted`: the caller's `signal` aborted the request.
 */
export type OutboundFailureReason = 'connection_failed' | 'invalid_request' | 'aborted';

export type OutboundErrorReason = OutboundBlockedReason | OutboundFailureReason;

const POLICY_REASONS: ReadonlySet<string> = new Set<OutboundPolicyReason>([
  'invalid_url',
  'unsupported_scheme',
  'not_allowlisted',
  'blocked_address',
  'metadata_address',
]);

export interface OutboundErrorDetails {
  /** The URL of the hop that failed (credentials removed). */
  url?: string;
  /** For address refusals: the address that was refused and the range it falls in. */
  address?: string;
  range?: AddressRange;
  cause?: unknown;
}

/** Base class of everything the guard throws; `reason` is stable and meant for callers to map. */
export class OutboundHttpError extends Error {
  readonly reason: OutboundErrorReason;
  readonly url: string | undefined;
  readonly address: string | undefined;
  readonly range: AddressRange | undefined;

  constructor(reason: OutboundErrorReason, message: string, details: OutboundErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'OutboundHttpError';
    this.reason = reason;
    this.url = details.url;
    this.address = details.address;
    this.range = details.range;
  }
}

/**
 * The guard refused (a policy reason) or cut (a limit reason) the request. Callers usually map
 * policy reasons to their "endpoint not allowed" business error and limit reasons to a failed call.
 */
export class OutboundBlockedError extends OutboundHttpError {
  declare readonly reason: OutboundBlockedReason;

  constructor(reason: OutboundBlockedReason, message: string, details: OutboundErrorDetails = {}) {
    super(reason, message, details);
    this.name = 'OutboundBlockedError';
  }

  /** True when the URL or its address is not allowed at all (as opposed to a limit being hit). */
  get isPolicyRefusal(): boolean {
    return POLICY_REASONS.has(this.reason);
  }
}

/** True for refusals caused by the target itself (origin or address), whatever the error type. */
export function isPolicyRefusal(error: unknown): error is OutboundBlockedError {
  return error instanceof OutboundBlockedError && error.isPolicyRefusal;
}

/** The URL without userinfo, for error messages and logs. */
export function redactUrl(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}
