import { notificationsV1 } from '@platform/contracts';
import { registration, type ServiceHandlers } from '@platform/grpc';
import type { Connection } from '@platform/mongo';
import { serviceInfoHandler } from '@platform/runtime';
import { mongoSchemaVersion } from '../data/schema.js';

export const SERVICE_NAME = 'platform.notifications.v1.NotificationsService';

/** Entry points of the notifications service: thin handlers that decode, call a use case, encode. */
export function notificationsGrpc(dependencies: { connection: Connection; version: string }) {
  // h-ndeliver: only GetInfo here; the in-app RPCs come with h-ncore's handlers.
  return registration(SERVICE_NAME, notificationsV1.NotificationsServiceService, {
    getInfo: serviceInfoHandler('notifications', dependencies.version, () =>
      mongoSchemaVersion(dependencies.connection),
    ),
  } as unknown as ServiceHandlers<typeof notificationsV1.NotificationsServiceService>);
}
