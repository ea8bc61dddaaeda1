export { TokenService, TokenError, type TokenClaims, type TokenType, type IssuedToken } from './tokens.js';
export {
  PRINCIPAL_REVISION_TTL_SECONDS,
  principalRevisionKey,
  SessionRegistry,
  type SessionCheck,
  type SessionState,
  type SessionStore,
} from './session-registry.js';
