import type { IdentityDependencies } from '../../deps.js';

/** What the auth use cases depend on. */
export type AuthDeps = Pick<
  IdentityDependencies,
  | 'config'
  | 'pool'
  | 'redis'
  | 'producer'
  | 'logger'
  | 'settings'
  | 'tokens'
  | 'sessions'
  | 'passwords'
  | 'captcha'
>;
