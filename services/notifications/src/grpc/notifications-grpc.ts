import { notificationsV1 } from '@platform/contracts';
import { registration, type ServiceRegistration } from '@platform/grpc';
import type { Connection } from '@platform/mongo';
import { serviceInfoHandler } from '@platform/runtime';
import { mongoSchemaVersion } from '../data/schema.js';
import type { Delivery } from '../delivery/index.js';
import { channelTestsGrpc } from './channel-tests-grpc.js';

export const SERVICE_NAME = 'platform.notifications.v1.NotificationsService';

/** Entry points of the notifications service: thin handlers that decode, call a use case, encode. */
export function notificationsGrpc(dependencies: {
  connection: Connection;
  version: string;
  delivery: Delivery;
}): ServiceRegistration[] {
  return [
    registration(SERVICE_NAME, notificationsV1.NotificationsServiceService, {
      getInfo: serviceInfoHandler('notifications', dependencies.version, () =>
        mongoSchemaVersion(dependencies.connection),
      ),
    }),
    channelTestsGrpc(dependencies.delivery),
  ];
}
