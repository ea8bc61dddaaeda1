import { describe, expect, it } from 'vitest';
import type { ClosedSet } from '../src/closed-set.js';
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
import { expectNamesEveryValue } from './support/enum-coverage.js';

// The closed sets only answers carry (issue 25, "protos: the rest"): the service sends the enum and
// the gateway presents the name, so each name below is what an HTTP body (or a stored record) says.
const answerSets: [ClosedSet<string, number>, Record<string, string | number>, string[]][] = [
  [TIMEOUT_TYPES, TimeoutType, ['workflow', 'unknown']],
  [MONITOR_STATUSES, MonitorStatus, ['normal', 'warning', 'danger']],
  [
    SLOW_QUERY_UNAVAILABLE_REASONS,
    UnavailableReason,
    ['not_preloaded', 'permission_denied', 'extension_missing'],
  ],
  [NOTIFICATION_STATUSES, NotificationStatus, ['active']],
  [CHANNEL_TEST_OUTCOMES, ChannelTestOutcome, ['started', 'succeeded', 'failed']],
];

describe('the closed sets of answers', () => {
  it.each(answerSets.map(([set, protoEnum, names]) => ({ set, protoEnum, names, label: names.join(' | ') })))(
    '$label: the names the spec uses, one for every value of the proto enum',
    ({ set, protoEnum, names }) => {
      expect(set.names).toEqual(names);
      expectNamesEveryValue(set, protoEnum);
    },
  );
});
