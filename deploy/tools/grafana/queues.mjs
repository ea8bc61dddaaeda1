// Queues and outbox: consumer lag, consumed/produced, dead letters, outbox backlog and age.
import { q, ts, stacked, RI, SVC } from './builders.mjs';

export const queuesRows = [
  [
    'Consumer lag',
    [
      ts(
        'Lag per group',
        'Messages not yet consumed, per consumer group (alert KafkaConsumerLagGrowing).',
        'short',
        [q('sum by (group) (max by (group, topic, partition) (kafka_consumer_group_lag))', '{{group}}')],
      ),
      ts('Lag per partition', 'The same per topic and partition, as /system/workers shows it.', 'short', [
        q(
          'max by (group, topic, partition) (kafka_consumer_group_lag)',
          '{{group}} {{topic}}[{{partition}}]',
        ),
      ]),
      ts('Members per group', 'Consumers in each group.', 'short', [
        q('max by (group) (kafka_consumer_group_members)', '{{group}}'),
      ]),
    ],
  ],
  [
    'Consumed and produced',
    [
      ts(
        'Consumed per topic and outcome',
        'Messages/s taken: handled, failed (an attempt), dead_lettered, duplicate.',
        'short',
        [
          q(
            `sum by (topic, outcome) (rate(kafka_messages_consumed_total{${SVC}}[${RI}]))`,
            '{{topic}} {{outcome}}',
          ),
        ],
        stacked,
      ),
      ts(
        'Dead-lettered',
        'Messages/s sent to the dead-letter topic (alert KafkaMessagesDeadLettered).',
        'short',
        [
          q(
            `sum by (group, topic) (rate(kafka_messages_consumed_total{${SVC},outcome="dead_lettered"}[${RI}]))`,
            '{{group}} {{topic}}',
          ),
        ],
      ),
      ts(
        'Handling p99 per group',
        'Time on one message (one batch for batch consumers), retries included.',
        's',
        [
          q(
            `histogram_quantile(0.99, sum by (le, group) (rate(kafka_message_handling_seconds_bucket{${SVC}}[${RI}])))`,
            '{{group}}',
          ),
        ],
      ),
      ts('Produced per topic', 'Messages/s sent, by outcome.', 'short', [
        q(
          `sum by (topic, outcome) (rate(kafka_messages_produced_total{${SVC}}[${RI}]))`,
          '{{topic}} {{outcome}}',
        ),
      ]),
    ],
  ],
  [
    'Outbox',
    [
      ts('Backlog', 'Outbox rows waiting to be relayed, per service (alert OutboxBacklogHigh).', 'short', [
        q(`max by (service) (outbox_backlog_rows{${SVC}})`, '{{service}}'),
      ]),
      ts('Oldest row age', 'Age of the oldest unrelayed row (alert OutboxOldestRowTooOld at 5 min).', 's', [
        q(`max by (service) (outbox_oldest_row_age_seconds{${SVC}})`, '{{service}}'),
      ]),
      ts('Relayed', 'Rows/s relayed, by outcome.', 'short', [
        q(`sum by (service, outcome) (rate(outbox_relayed_total{${SVC}}[${RI}]))`, '{{service}} {{outcome}}'),
      ]),
    ],
  ],
];
