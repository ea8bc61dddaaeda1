export {
  startGrpcServer,
  registration,
  internalOnly,
  type GrpcServerOptions,
  type InternalMethods,
  type RegistrationOptions,
  type RunningGrpcServer,
  type ServiceRegistration,
} from './server.js';
export { createServiceClient, type ServiceClient, type CallOptions, type ClientOptions } from './client.js';
export type { Principal } from './principal.js';
export { readOrigin, type ForwardedOrigin, type RequestOrigin } from './request-origin.js';
export { MetadataKeys, toMetadata, readRequestId, readLocale } from './metadata.js';
export {
  businessErrorToStatus,
  statusToBusinessError,
  STATUS_DETAILS_KEY,
  ERROR_DOMAIN,
} from './status-details.js';
export type {
  CallContext,
  ServiceDefinition,
  ServiceHandlers,
  UnaryHandler,
  RequestOf,
  ResponseOf,
} from './service-types.js';
export { checkHealth } from './health-client.js';
export {
  createOutgoingTrust,
  type CallCredentials,
  type OutgoingTrust,
  type OutgoingTrustOptions,
} from './trust/outgoing-trust.js';
export {
  createServerTrust,
  type AuthenticatedCall,
  type ServerTrust,
  type ServerTrustOptions,
} from './trust/server-trust.js';
export {
  PrincipalSigner,
  PrincipalVerifier,
  principalDigest,
  PRINCIPAL_TOKEN_LIFETIME_SECONDS,
} from './trust/principal-token.js';
export { ServiceTokenSigner, ServiceTokenVerifier } from './trust/service-token.js';
export {
  parsePrivateSigningKey,
  parsePublicVerifyKeys,
  parseCallerKeys,
  splitKeyList,
} from './trust/keys.js';
export {
  identityDirectoryClient,
  memberRoleOf,
  teamRoleFilter,
  type DirectoryClient,
} from './peers/identity-directory.js';
export {
  workflowNamesClient,
  type WorkflowName,
  type WorkflowNamesClient,
  type WorkflowNamesOptions,
} from './peers/workflow-names.js';
