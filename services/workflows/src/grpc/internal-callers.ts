/**
 * workflows' internal-only methods and the services allowed to call each (checked against the
 * caller's service token by packages/grpc; docs/security.md). Anything else is refused 403.
 */
export const INTERNAL_CALLERS = {
  /** Names of bound workflows in API-key views (deleted ones flagged); workflow names on dashboards. */
  getWorkflowNames: ['apikeys', 'observability'],
} as const satisfies Record<string, readonly string[]>;
