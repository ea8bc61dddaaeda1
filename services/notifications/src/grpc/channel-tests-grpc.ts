import * as channelTestsV1 from '@platform/contracts/platform/notifications/v1/channel_tests';
import { BusinessError, ErrorCode } from '@platform/errors';
import { readOrigin, registration } from '@platform/grpc';
import { hasPermission } from '@platform/rbac';
import { CHANNEL_NAMES, type ChannelName } from '../domain/delivery-port.js';
import type { Delivery } from '../delivery/index.js';

export const CHANNEL_TEST_SERVICE_NAME = 'platform.notifications.v1.ChannelTestService';

/** `POST /admin/site-settings/test-*`: the gateway checked the permission; checked again here. */
export function channelTestsGrpc(delivery: Pick<Delivery, 'testChannel'>) {
  return registration(CHANNEL_TEST_SERVICE_NAME, channelTestsV1.ChannelTestServiceService, {
    testChannel: async (request, context) => {
      const caller = context.principal;
      if (!caller) throw new BusinessError(ErrorCode.UNAUTHORIZED);
      if (!hasPermission(caller, 'admin:settings:update'))
        throw new BusinessError(ErrorCode.PERMISSION_DENIED);
      if (!(CHANNEL_NAMES as readonly string[]).includes(request.channel)) {
        throw new BusinessError(ErrorCode.VALIDATION_ERROR, {
          data: { errors: { channel: ['unknown channel'] } },
        });
      }
      return delivery.testChannel({
        channel: request.channel as ChannelName,
        overrides: request.overrides ?? {},
        ...(request.to ? { to: request.to } : {}),
        callerId: caller.user_id,
        callerName: caller.username,
        origin: readOrigin(request.origin, context),
        locale: context.locale ?? 'en',
      });
    },
  });
}
