/**
 * Identity's internal-only methods and the services allowed to call each (checked against the
 * caller's service token by packages/grpc; docs/security.md). Anything else is refused 403.
 */
export const INTERNAL_CALLERS = {
  /** The gateway resolves a token's user into a principal. */
  getPrincipal: ['gateway'],
  /** Owner names for API-key views. */
  getUsers: ['apikeys'],
  /**
   * Decrypted settings: SMTP and channels (notifications); only the endpoint allowlist (models) and
   * the http_request and model allowlists of workflow nodes (workflows): EFFECTIVE_SETTINGS_SCOPE.
   */
  getEffectiveSettings: ['notifications', 'models', 'workflows'],
  // DirectoryService (directory-grpc.ts): what senders and team-scoped services learn about people.
  /** E-mail address, locale and active flag of recipients (notifications). */
  getUserContacts: ['notifications'],
  /** Team existence and a user's role in it: notification scope, model grants, workflow access. */
  getTeamMembership: ['notifications', 'models', 'workflows'],
  /** Team recipients (notifications) and the team's OWNER/ADMINs for grant notices (models). */
  listTeamMemberIds: ['notifications', 'models'],
  /** Every active user, for `global` e-mail (notifications). */
  listActiveUserIds: ['notifications'],
  /** The team a workflow without a team bills its model use to (workflows, at run start). */
  getDefaultTeam: ['workflows'],
} as const satisfies Record<string, readonly string[]>;

/**
 * The settings a caller of GetEffectiveSettings may read, where it is fewer than all of them:
 * models and workflows need only the allowlists they check, never a decrypted secret (SMTP and
 * channel secrets are notifications' alone). A key outside the caller's list is refused 403 / 3000;
 * no keys asked means the whole list.
 */
export const EFFECTIVE_SETTINGS_SCOPE: Readonly<Partial<Record<string, readonly string[]>>> = {
  models: ['model_endpoint_allowlist'],
  workflows: ['workflow_http_allowlist', 'model_endpoint_allowlist'],
};
