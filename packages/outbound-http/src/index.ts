export {
  outboundRequest,
  createOutboundHttp,
  type OutboundRequestInit,
  type OutboundResponse,
} from './outbound-request.js';
export {
  outcomeOfError,
  outcomeOfStatus,
  type OutboundPurpose,
  type OutboundOutcome,
} from './request-telemetry.js';
export { OUTBOUND_DEFAULTS, type OutboundPolicy } from './policy.js';
export { checkUrl, checkTarget } from './target-check.js';
export {
  parseOrigin,
  isOrigin,
  normalizeOrigin,
  urlOrigin,
  normalizeHost,
  createAllowlist,
  loadAllowlist,
  isUrlAllowlisted,
  type AllowlistSource,
  type AllowlistMatcher,
} from './origin.js';
export {
  classifyAddress,
  isMetadataHostname,
  type AddressRange,
  type AddressClass,
} from './address-ranges.js';
export { refuseAddress, guardedLookup, systemResolver, type Resolver } from './address-policy.js';
export {
  OutboundHttpError,
  OutboundBlockedError,
  isPolicyRefusal,
  type OutboundErrorReason,
  type OutboundBlockedReason,
  type OutboundPolicyReason,
  type OutboundLimitReason,
} from './errors.js';
