import type { IdentityDependencies } from '../../identity-service.js';
import type { TotpThrottle } from './totp-throttle.js';

/** What the TOTP use cases depend on: the identity dependencies plus the Redis throttle. */
export interface TotpDeps extends IdentityDependencies {
  throttle: TotpThrottle;
}

/** Where the request came from, for audit rows and the session a login ends with. */
export interface TotpRequestMeta {
  ip: string;
  userAgent: string;
  requestId: string;
}
