import type { Resolver } from './address-policy.js';
import type { AllowlistSource } from './origin.js';

export interface OutboundPolicy {
  /** The registered origins (a list, or a function returning the current list). */
  allowlist: AllowlistSource;
  /**
   * true (default): only allowlisted origins may be called at all. false: any origin whose
   * addresses are public; private ranges still only for allowlisted origins.
   */
  requireAllowlisted?: boolean;
  /** Redirects followed before `too_many_redirects` (default 5; 0 refuses any redirect). */
  maxRedirects?: number;
  /** Per hop, from the socket's creation (DNS included) to the TCP connection (default 5 s). */
  connectTimeoutMs?: number;
  /** The whole request: every hop and the body (default 30 s). */
  timeoutMs?: number;
  /** Response body cap in bytes (default 5 MiB); the stream is cut past it. */
  maxResponseBytes?: number;
  /** DNS; defaults to the system resolver (`dns.lookup`, every address). */
  resolve?: Resolver;
  /** Extra trusted CA certificates (PEM) for endpoints with a private CA. */
  ca?: string | Buffer | readonly (string | Buffer)[];
}

export const OUTBOUND_DEFAULTS = {
  maxRedirects: 5,
  connectTimeoutMs: 5_000,
  timeoutMs: 30_000,
  maxResponseBytes: 5 * 1024 * 1024,
} as const;
