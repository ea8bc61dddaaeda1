import { CHANNEL_TEST_OUTCOMES, NOTIFICATION_CHANNELS } from '@platform/contracts';
import * as channelTestsV1 from '@platform/contracts/platform/notifications/v1/channel_tests';
import { BusinessError, ErrorCode } from '@platform/errors';
import { readOrigin, registration } from '@platform/grpc';
import { isGlobalAdmin, requirePermission, requirePrincipal } from '@platform/rbac';
import { valueIn } from '../domain/closed-values.js';
import { readPaging } from '../domain/paging.js';
import type { ChannelTestAuditDoc } from '../data/models.js';
import type { ChannelTestRequest, ChannelTestResult } from '../domain/delivery/channel-test.js';
import type { DeliveryDeps } from '../domain/delivery/delivery-deps.js';

export const CHANNEL_TEST_SERVICE_NAME = 'platform.notifications.v1.ChannelTestService';

function toEntry(doc: ChannelTestAuditDoc): channelTestsV1.ChannelTestAuditEntry {
  return {
    id: doc._id,
    channel: valueIn(NOTIFICATION_CHANNELS, doc.channel),
    actor_user_id: doc.actor_user_id,
    actor_username: doc.actor_username,
    ip: doc.ip,
    user_agent: doc.user_agent,
    request_id: doc.request_id,
    destination: doc.destination,
    overridden: doc.overridden,
    dropped_secrets: doc.dropped_secrets,
    outcome: valueIn(CHANNEL_TEST_OUTCOMES, doc.outcome),
    error_key: doc.error_key ?? '',
    at: doc.at.toISOString(),
  };
}

/**
 * `POST /admin/site-settings/test-*` and the channel-test audit: the gateway checked the
 * permission; checked again here. `pageWindow` bounds how deep an audit page may reach.
 */
/** The delivery side's channel test and its audit (delivery-area.ts builds them). */
export interface ChannelTests {
  testChannel(request: ChannelTestRequest): Promise<ChannelTestResult>;
  deps: Pick<DeliveryDeps, 'testAudit'>;
}

export function channelTestsGrpc(delivery: ChannelTests, pageWindow: number) {
  return registration(CHANNEL_TEST_SERVICE_NAME, channelTestsV1.ChannelTestServiceService, {
    testChannel: async (request, context) => {
      const caller = requirePermission(context.principal, 'admin:settings:update');
      const channel = NOTIFICATION_CHANNELS.fromProto(request.channel);
      if (channel === undefined) {
        throw new BusinessError(ErrorCode.VALIDATION_ERROR, {
          data: { errors: { channel: ['unknown channel'] } },
        });
      }
      return delivery.testChannel({
        channel,
        overrides: request.overrides ?? {},
        ...(request.to ? { to: request.to } : {}),
        callerId: caller.user_id,
        callerName: caller.username,
        origin: readOrigin(request.origin, context),
        locale: context.locale ?? 'en',
      });
    },
    listChannelTestAudit: async (request, context) => {
      const caller = requirePrincipal(context.principal);
      if (!isGlobalAdmin(caller)) throw new BusinessError(ErrorCode.INSUFFICIENT_PRIVILEGES);
      const paging = readPaging(request.page, request.page_size, pageWindow);
      const { items, total } = await delivery.deps.testAudit.page(paging.skip, paging.pageSize);
      return { items: items.map(toEntry), total, page: paging.page, page_size: paging.pageSize };
    },
  });
}
