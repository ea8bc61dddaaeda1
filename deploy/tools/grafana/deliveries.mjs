// Deliveries: by channel and outcome, attempts, time to success, vendor rate-limit waits.
import { q, quantiles, ts, stacked, RI, resourcePanels } from './builders.mjs';

export const deliveriesRows = [
  [
    'Deliveries',
    [
      ts(
        'Deliveries per channel and outcome',
        'Notifications/s reaching an end, by channel and outcome.',
        'short',
        [
          q(
            `sum by (channel, outcome) (rate(notification_deliveries_total[${RI}]))`,
            '{{channel}} {{outcome}}',
          ),
        ],
        stacked,
      ),
      ts(
        'Failure ratio per channel',
        'Failed / (delivered + failed) (alert NotificationDeliveryFailureRatioHigh at 10%).',
        'percentunit',
        [
          q(
            `sum by (channel) (rate(notification_deliveries_total{outcome=~"failed|retries_exhausted"}[${RI}])) / sum by (channel) (rate(notification_deliveries_total[${RI}]))`,
            '{{channel}}',
          ),
        ],
      ),
      ts('Attempts per channel and outcome', 'Vendor attempts/s (a delivery may take several).', 'short', [
        q(
          `sum by (channel, outcome) (rate(notification_delivery_attempts_total[${RI}]))`,
          '{{channel}} {{outcome}}',
        ),
      ]),
      ts(
        'Time to success',
        'From the delivery being queued to the vendor accepting it.',
        's',
        quantiles('notification_delivery_seconds', '', 'channel'),
      ),
    ],
  ],
  [
    'Vendor rate limits',
    [
      ts('Rate-limit waits', 'Times/s a delivery waited for a vendor rate limit, by channel.', 'short', [
        q(`sum by (channel) (rate(notification_rate_limit_waits_total[${RI}]))`, '{{channel}}'),
      ]),
      ts(
        'Time spent waiting',
        'Seconds waited per second, by channel (1 = one delivery always waiting).',
        'short',
        [q(`sum by (channel) (rate(notification_rate_limit_wait_seconds_total[${RI}]))`, '{{channel}}')],
      ),
    ],
  ],
  ['Resources', resourcePanels('service="notifications"')],
];
