import type { IdentityDependencies } from '../../deps.js';

/** What the auth use cases depend on. */
export type AuthDeps = Pick<
  IdentityDependencies,
  'pool' | 'redis' | 'producer' | 'logger' | 'settings' | 'tokens' | 'sessions' | 'passwords' | 'captcha'
>;

/** Who asked: for audit rows, anomaly checks and localized reasons. */
export interface RequestMeta {
  ip: string;
  userAgent: string;
  requestId: string;
  locale: string;
}
