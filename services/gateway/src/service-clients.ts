import {
  apikeysV1,
  identityV1,
  modelsV1,
  notificationsV1,
  observabilityV1,
  workflowsV1,
} from '@platform/contracts';
import * as adminUsersV1 from '@platform/contracts/platform/identity/v1/admin_users';
import * as authV1 from '@platform/contracts/platform/identity/v1/auth';
import * as captchaV1 from '@platform/contracts/platform/identity/v1/captcha';
import * as rolesV1 from '@platform/contracts/platform/identity/v1/roles';
import * as settingsV1 from '@platform/contracts/platform/identity/v1/settings';
import * as channelTestsV1 from '@platform/contracts/platform/notifications/v1/channel_tests';
import * as teamsV1 from '@platform/contracts/platform/identity/v1/teams';
import * as totpV1 from '@platform/contracts/platform/identity/v1/totp';
import * as verificationV1 from '@platform/contracts/platform/identity/v1/verification';
import * as ssoV1 from '@platform/contracts/platform/identity/v1/sso';
import * as workflowVersionsV1 from '@platform/contracts/platform/workflows/v1/workflow_versions';
import * as workflowRunsV1 from '@platform/contracts/platform/workflows/v1/workflow_runs';
import * as modelGrantsV1 from '@platform/contracts/platform/models/v1/grants';
import * as analyticsV1 from '@platform/contracts/platform/observability/v1/analytics';
import * as systemV1 from '@platform/contracts/platform/observability/v1/system';
import { createOutgoingTrust, createServiceClient, type ServiceClient } from '@platform/grpc';
import type { GatewayConfig } from './config.js';

/** One gRPC client per domain service; routes reach services only through these. */
export interface ServiceClients {
  identity: ServiceClient<typeof identityV1.IdentityServiceService>;
  auth: ServiceClient<typeof authV1.AuthServiceService>;
  settings: ServiceClient<typeof settingsV1.SettingsServiceService>;
  roles: ServiceClient<typeof rolesV1.RolesServiceService>;
  adminUsers: ServiceClient<typeof adminUsersV1.AdminUsersServiceService>;
  teams: ServiceClient<typeof teamsV1.TeamsServiceService>;
  verification: ServiceClient<typeof verificationV1.VerificationServiceService>;
  captcha: ServiceClient<typeof captchaV1.CaptchaServiceService>;
  totp: ServiceClient<typeof totpV1.TotpServiceService>;
  sso: ServiceClient<typeof ssoV1.SsoServiceService>;
  apikeys: ServiceClient<typeof apikeysV1.ApiKeysServiceService>;
  notifications: ServiceClient<typeof notificationsV1.NotificationsServiceService>;
  channelTests: ServiceClient<typeof channelTestsV1.ChannelTestServiceService>;
  models: ServiceClient<typeof modelsV1.ModelsServiceService>;
  modelGrants: ServiceClient<typeof modelGrantsV1.ModelGrantsServiceService>;
  workflows: ServiceClient<typeof workflowsV1.WorkflowsServiceService>;
  workflowVersions: ServiceClient<typeof workflowVersionsV1.WorkflowVersionsServiceService>;
  workflowRuns: ServiceClient<typeof workflowRunsV1.WorkflowRunsServiceService>;
  /** The run event stream behind the SSE route (server streaming). */
  workflowRunStream: ServiceClient<typeof workflowRunsV1.WorkflowRunStreamServiceService>;
  observability: ServiceClient<typeof observabilityV1.ObservabilityServiceService>;
  /** Observability's admin analytics (overview, agents, workflows, timeouts, throughput, tokens). */
  analytics: ServiceClient<typeof analyticsV1.AnalyticsServiceService>;
  /** Observability's system monitors (`/admin/observability/system/*`). */
  observabilitySystem: ServiceClient<typeof systemV1.SystemMonitorServiceService>;
}

/** The service names each client's credentials name as audience (each service's `runService` name). */
export const SERVICE_AUDIENCES = {
  identity: 'identity',
  apikeys: 'apikeys',
  notifications: 'notifications',
  models: 'models',
  workflows: 'workflows',
  observability: 'observability',
} as const;

type ClientConfig = Pick<
  GatewayConfig,
  | 'GRPC_TIMEOUT_MS'
  | 'PRINCIPAL_SIGNING_PRIVATE_KEY'
  | 'SERVICE_SIGNING_PRIVATE_KEY'
  | 'IDENTITY_GRPC_ADDR'
  | 'APIKEYS_GRPC_ADDR'
  | 'NOTIFICATIONS_GRPC_ADDR'
  | 'MODELS_GRPC_ADDR'
  | 'WORKFLOWS_GRPC_ADDR'
  | 'OBSERVABILITY_GRPC_ADDR'
>;

/**
 * The gateway's clients. Every call carries the gateway's service token and, when it forwards a
 * principal, the gateway's signature over it for that service (docs/security.md).
 */
export function createServiceClients(config: ClientConfig): ServiceClients {
  const trust = createOutgoingTrust({
    service: 'gateway',
    serviceSigningKey: config.SERVICE_SIGNING_PRIVATE_KEY,
    principalSigningKey: config.PRINCIPAL_SIGNING_PRIVATE_KEY,
  });
  const to = (audience: keyof typeof SERVICE_AUDIENCES) => ({
    defaultTimeoutMs: config.GRPC_TIMEOUT_MS,
    credentials: trust.to(SERVICE_AUDIENCES[audience]),
  });
  const identityOptions = to('identity');
  return {
    identity: createServiceClient(
      identityV1.IdentityServiceService,
      'platform.identity.v1.IdentityService',
      config.IDENTITY_GRPC_ADDR,
      identityOptions,
    ),
    auth: createServiceClient(
      authV1.AuthServiceService,
      'platform.identity.v1.AuthService',
      config.IDENTITY_GRPC_ADDR,
      identityOptions,
    ),
    settings: createServiceClient(
      settingsV1.SettingsServiceService,
      'platform.identity.v1.SettingsService',
      config.IDENTITY_GRPC_ADDR,
      identityOptions,
    ),
    roles: createServiceClient(
      rolesV1.RolesServiceService,
      'platform.identity.v1.RolesService',
      config.IDENTITY_GRPC_ADDR,
      identityOptions,
    ),
    adminUsers: createServiceClient(
      adminUsersV1.AdminUsersServiceService,
      'platform.identity.v1.AdminUsersService',
      config.IDENTITY_GRPC_ADDR,
      identityOptions,
    ),
    teams: createServiceClient(
      teamsV1.TeamsServiceService,
      'platform.identity.v1.TeamsService',
      config.IDENTITY_GRPC_ADDR,
      identityOptions,
    ),
    verification: createServiceClient(
      verificationV1.VerificationServiceService,
      'platform.identity.v1.VerificationService',
      config.IDENTITY_GRPC_ADDR,
      identityOptions,
    ),
    captcha: createServiceClient(
      captchaV1.CaptchaServiceService,
      'platform.identity.v1.CaptchaService',
      config.IDENTITY_GRPC_ADDR,
      identityOptions,
    ),
    totp: createServiceClient(
      totpV1.TotpServiceService,
      'platform.identity.v1.TotpService',
      config.IDENTITY_GRPC_ADDR,
      identityOptions,
    ),
    sso: createServiceClient(
      ssoV1.SsoServiceService,
      'platform.identity.v1.SsoService',
      config.IDENTITY_GRPC_ADDR,
      identityOptions,
    ),
    apikeys: createServiceClient(
      apikeysV1.ApiKeysServiceService,
      'platform.apikeys.v1.ApiKeysService',
      config.APIKEYS_GRPC_ADDR,
      to('apikeys'),
    ),
    notifications: createServiceClient(
      notificationsV1.NotificationsServiceService,
      'platform.notifications.v1.NotificationsService',
      config.NOTIFICATIONS_GRPC_ADDR,
      to('notifications'),
    ),
    channelTests: createServiceClient(
      channelTestsV1.ChannelTestServiceService,
      'platform.notifications.v1.ChannelTestService',
      config.NOTIFICATIONS_GRPC_ADDR,
      to('notifications'),
    ),
    models: createServiceClient(
      modelsV1.ModelsServiceService,
      'platform.models.v1.ModelsService',
      config.MODELS_GRPC_ADDR,
      to('models'),
    ),
    modelGrants: createServiceClient(
      modelGrantsV1.ModelGrantsServiceService,
      'platform.models.v1.ModelGrantsService',
      config.MODELS_GRPC_ADDR,
      to('models'),
    ),
    workflows: createServiceClient(
      workflowsV1.WorkflowsServiceService,
      'platform.workflows.v1.WorkflowsService',
      config.WORKFLOWS_GRPC_ADDR,
      to('workflows'),
    ),
    workflowVersions: createServiceClient(
      workflowVersionsV1.WorkflowVersionsServiceService,
      'platform.workflows.v1.WorkflowVersionsService',
      config.WORKFLOWS_GRPC_ADDR,
      to('workflows'),
    ),
    workflowRuns: createServiceClient(
      workflowRunsV1.WorkflowRunsServiceService,
      'platform.workflows.v1.WorkflowRunsService',
      config.WORKFLOWS_GRPC_ADDR,
      to('workflows'),
    ),
    workflowRunStream: createServiceClient(
      workflowRunsV1.WorkflowRunStreamServiceService,
      'platform.workflows.v1.WorkflowRunStreamService',
      config.WORKFLOWS_GRPC_ADDR,
      to('workflows'),
    ),
    observability: createServiceClient(
      observabilityV1.ObservabilityServiceService,
      'platform.observability.v1.ObservabilityService',
      config.OBSERVABILITY_GRPC_ADDR,
      to('observability'),
    ),
    analytics: createServiceClient(
      analyticsV1.AnalyticsServiceService,
      'platform.observability.v1.AnalyticsService',
      config.OBSERVABILITY_GRPC_ADDR,
      to('observability'),
    ),
    observabilitySystem: createServiceClient(
      systemV1.SystemMonitorServiceService,
      'platform.observability.v1.SystemMonitorService',
      config.OBSERVABILITY_GRPC_ADDR,
      to('observability'),
    ),
  };
}

export function closeServiceClients(clients: ServiceClients): void {
  for (const client of Object.values(clients)) client.close();
}
