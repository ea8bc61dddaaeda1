import type { ServiceClients } from '../service-clients.js';
import { healthRoutes } from './health-routes.js';
import { identityAuthRoutes } from './identity-auth-routes.js';
import { identityCaptchaRoutes } from './identity-captcha-routes.js';
import { identityTotpRoutes } from './identity-totp-routes.js';
import { identitySettingsRoutes } from './identity-settings-routes.js';
import { identityRolesRoutes } from './identity-roles-routes.js';
import { identityAdminUsersRoutes } from './identity-admin-users-routes.js';
import { identityTeamsRoutes } from './identity-teams-routes.js';
import { identityVerificationRoutes } from './identity-verification-routes.js';
import { identitySsoRoutes } from './identity-sso-routes.js';
import { identitySsoAdminRoutes } from './identity-sso-admin-routes.js';
import { apikeysRoutes } from './apikeys-routes.js';
import { apikeysAdminRoutes } from './apikeys-admin-routes.js';
import { workflowsRoutes } from './workflows-routes.js';
import { workflowVersionsRoutes } from './workflow-versions-routes.js';
import { workflowRunsRoutes } from './workflow-runs-routes.js';
import { modelsGrantsRoutes } from './models-grants-routes.js';
import { modelsRoutes } from './models-routes.js';
import { notificationsRoutes } from './notifications-routes.js';
import { notificationsAdminRoutes } from './notifications-admin-routes.js';
import { notificationsChannelTestRoutes } from './notifications-channel-test-routes.js';
import { observabilityRoutes } from './observability-routes.js';
import { observabilitySystemRoutes } from './observability-system-routes.js';
import type { RouteDefinition } from './route-definition.js';

/** The gateway's route table: one file per domain, concatenated here. */
export const routeTable: RouteDefinition<ServiceClients>[] = [
  ...healthRoutes,
  ...identityAuthRoutes,
  ...identityCaptchaRoutes,
  ...identityTotpRoutes,
  ...identitySettingsRoutes,
  ...identityRolesRoutes,
  ...identityAdminUsersRoutes,
  ...identityTeamsRoutes,
  ...identityVerificationRoutes,
  ...apikeysRoutes,
  ...apikeysAdminRoutes,
  ...identitySsoRoutes,
  ...identitySsoAdminRoutes,
  ...workflowsRoutes,
  ...workflowVersionsRoutes,
  ...workflowRunsRoutes,
  ...modelsRoutes,
  ...modelsGrantsRoutes,
  ...notificationsRoutes,
  ...notificationsAdminRoutes,
  ...notificationsChannelTestRoutes,
  ...observabilityRoutes,
  ...observabilitySystemRoutes,
];
