export { TokenService, TokenError, type TokenClaims, type TokenType, type IssuedToken } from './tokens.js';
export {
  SessionRegistry,
  type SessionCheck,
  type SessionState,
  type SessionStore,
} from './session-registry.js';
