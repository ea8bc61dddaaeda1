import { describe, expect, it } from 'vitest';
import { ChannelTestOutcome } from '../src/gen/platform/notifications/v1/channel_tests.js';
import { NotificationStatus } from '../src/gen/platform/notifications/v1/notifications.js';
import { TimeoutType } from '../src/gen/platform/observability/v1/analytics.js';
import { MonitorStatus, UnavailableReason } from '../src/gen/platform/observability/v1/system.js';
import { CHANNEL_TEST_OUTCOMES, NOTIFICATION_STATUSES } from '../src/notifications-sets.js';
import {
  MONITOR_STATUSES,
  SLOW_QUERY_UNAVAILABLE_REASONS,
  TIMEOUT_TYPES,
} from '../src/observability-sets.js';
import { expectNamesEveryValue, type EnumTable } from './support/enum-coverage.js';

// The closed sets that only answers carry (issue 25, "protos: the rest"): the service sends the enum,
// the gateway presents the name, so a name here is a name in the HTTP body.
const tables: EnumTable[] = [
  ['TIMEOUT_TYPES', TIMEOUT_TYPES, TimeoutType],
  ['MONITOR_STATUSES', MONITOR_STATUSES, MonitorStatus],
  ['SLOW_QUERY_UNAVAILABLE_REASONS', SLOW_QUERY_UNAVAILABLE_REASONS, UnavailableReason],
  ['NOTIFICATION_STATUSES', NOTIFICATION_STATUSES, NotificationStatus],
  ['CHANNEL_TEST_OUTCOMES', CHANNEL_TEST_OUTCOMES, ChannelTestOutcome],
];

describe('the closed sets of answers', () => {
  it.each(tables)('%s names every value of its proto enum, once', (_name, set, protoEnum) =>
    expectNamesEveryValue(set, protoEnum),
  );

  it('keeps the JSON names the spec and the stored records use', () => {
    expect(TIMEOUT_TYPES.names).toEqual(['workflow', 'unknown']);
    expect(MONITOR_STATUSES.names).toEqual(['normal', 'warning', 'danger']);
    expect(SLOW_QUERY_UNAVAILABLE_REASONS.names).toEqual([
      'not_preloaded',
      'permission_denied',
      'extension_missing',
    ]);
    expect(NOTIFICATION_STATUSES.names).toEqual(['active']);
    expect(CHANNEL_TEST_OUTCOMES.names).toEqual(['started', 'succeeded', 'failed']);
  });
});
