export {
  startGrpcServer,
  registration,
  type GrpcServerOptions,
  type RunningGrpcServer,
  type ServiceRegistration,
} from './server.js';
export { createServiceClient, type ServiceClient, type CallOptions, type ClientOptions } from './client.js';
export type { Principal } from './principal.js';
export { readOrigin, type ForwardedOrigin, type RequestOrigin } from './request-origin.js';
export { MetadataKeys, toMetadata, readPrincipal, readRequestId, readLocale } from './metadata.js';
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
