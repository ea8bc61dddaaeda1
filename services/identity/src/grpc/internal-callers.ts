/**
 * Identity's internal-only methods and the services allowed to call each (checked against the
 * caller's service token by packages/grpc; docs/security.md). Anything else is refused 403.
 */
export const INTERNAL_CALLERS = {
  /** The gateway resolves a token's user into a principal. */
  getPrincipal: ['gateway'],
  /** Owner names for API-key views. */
  getUsers: ['apikeys'],
  /** Decrypted settings: SMTP and channels (notifications), the endpoint allowlist (models). */
  getEffectiveSettings: ['notifications', 'models'],
} as const satisfies Record<string, readonly string[]>;
