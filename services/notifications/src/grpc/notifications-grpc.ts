import { notificationsV1 } from '@platform/contracts';
import { readOrigin, registration } from '@platform/grpc';
import { requirePermission, requirePrincipal } from '@platform/rbac';
import { serviceInfoHandler } from '@platform/runtime';
import { mongoSchemaVersion } from '../data/models.js';
import type { NotificationsDependencies } from '../deps.js';
import { adminListNotifications, deleteNotification } from '../domain/admin-notifications.js';
import { readAutoConfig, toConfigMessage, updateAutoConfig } from '../domain/auto-config.js';
import { createNotification } from '../domain/create-notification.js';
import { markRead } from '../domain/mark-read.js';
import { sendBulkEmail } from '../domain/send-bulk-email.js';
import { listNotifications, unreadCount } from '../domain/user-notifications.js';
import { decodeAdminList, decodeAutoConfigUpdate, decodeCreate, decodeList } from './decode-requests.js';

export const SERVICE_NAME = 'platform.notifications.v1.NotificationsService';

/** Entry points of the notifications service: thin handlers that decode, call a use case, encode. */
export function notificationsGrpc(deps: NotificationsDependencies) {
  return registration(SERVICE_NAME, notificationsV1.NotificationsServiceService, {
    getInfo: serviceInfoHandler('notifications', deps.version, () => mongoSchemaVersion(deps.connection)),
    listNotifications: (request, { principal }) =>
      listNotifications(deps, requirePrincipal(principal), decodeList(request)),
    getUnreadCount: (_request, { principal }) => unreadCount(deps, requirePrincipal(principal)),
    markRead: (request, { principal }) => markRead(deps, requirePrincipal(principal), request),
    adminListNotifications: (request, context) =>
      adminListNotifications(
        deps,
        requirePrincipal(context.principal),
        decodeAdminList(request),
        context.locale,
      ),
    createNotification: (request, context) =>
      createNotification(
        deps,
        requirePermission(context.principal, 'admin:notification:create'),
        decodeCreate(request),
        context.locale,
      ),
    deleteNotification: (request, context) =>
      deleteNotification(
        deps,
        requirePermission(context.principal, 'admin:notification:delete'),
        request.id,
        readOrigin(request.origin, context),
      ),
    getAutoNotificationConfig: async (_request, { principal }) => {
      requirePermission(principal, 'admin:settings:read');
      return toConfigMessage(await readAutoConfig(deps));
    },
    updateAutoNotificationConfig: async (request, { principal }) =>
      toConfigMessage(
        await updateAutoConfig(
          deps,
          requirePermission(principal, 'admin:settings:update'),
          decodeAutoConfigUpdate(request),
        ),
      ),
    sendBulkEmail: (request, { principal }) =>
      sendBulkEmail(deps, requirePermission(principal, 'admin:notification:create'), request),
  });
}
