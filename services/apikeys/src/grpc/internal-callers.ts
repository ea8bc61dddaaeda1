/**
 * apikeys' internal-only methods and the services allowed to call each (checked against the
 * caller's service token by packages/grpc; docs/security.md). Anything else is refused 403.
 */
export const INTERNAL_CALLERS = {
  /** The gateway's check of a presented key. */
  verifyKey: ['gateway'],
  /** The scheduled expiry check on demand: operators' tooling signs as `operator`. */
  runExpirationCheck: ['operator'],
} as const satisfies Record<string, readonly string[]>;
