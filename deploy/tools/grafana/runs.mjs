// Runs: queue → start, run and node durations, in flight, takeovers, resumes, outbound calls.
import { q, quantiles, ts, stacked, RI, resourcePanels } from './builders.mjs';

export const runsRows = [
  [
    'Queue',
    [
      ts('Runs queued', 'Runs waiting for a worker (every replica reports the same figure).', 'short', [
        q('max(workflow_runs_queued)', 'queued'),
      ]),
      ts(
        'Oldest queued run',
        'How long the oldest queued run has waited (alert WorkflowRunsStuckQueued at 5 min).',
        's',
        [q('max(workflow_oldest_queued_run_age_seconds)', 'oldest')],
      ),
      ts(
        'Queue → start',
        'Time from a run being queued to a worker starting it.',
        's',
        quantiles('workflow_run_queue_seconds', ''),
      ),
    ],
  ],
  [
    'Runs',
    [
      ts(
        'Runs finished per status',
        'Runs/s ending, by final status.',
        'short',
        [q(`sum by (status) (rate(workflow_run_duration_seconds_count[${RI}]))`, '{{status}}')],
        stacked,
      ),
      ts('Run duration p50 / p95 per status', 'Start to end of a run, by final status.', 's', [
        q(
          `histogram_quantile(0.5, sum by (le, status) (rate(workflow_run_duration_seconds_bucket[${RI}])))`,
          'p50 {{status}}',
        ),
        q(
          `histogram_quantile(0.95, sum by (le, status) (rate(workflow_run_duration_seconds_bucket[${RI}])))`,
          'p95 {{status}}',
        ),
      ]),
      ts('In flight per worker', 'Runs each workflows process is executing.', 'short', [
        q('sum by (instance) (workflow_runs_in_flight)', '{{instance}}'),
      ]),
      ts(
        'Lease takeovers and resumes',
        'Runs/s taken over from a worker whose lease expired, and runs resumed.',
        'short',
        [
          q(`sum(rate(workflow_run_lease_takeovers_total[${RI}]))`, 'takeovers'),
          q(`sum(rate(workflow_run_resumes_total[${RI}]))`, 'resumes'),
        ],
      ),
    ],
  ],
  [
    'Nodes and outbound calls',
    [
      ts('Node duration p95 per type', 'Time one node takes, by node type.', 's', [
        q(
          `histogram_quantile(0.95, sum by (le, node_type) (rate(workflow_node_duration_seconds_bucket[${RI}])))`,
          '{{node_type}}',
        ),
      ]),
      ts(
        'Nodes per type and outcome',
        'Nodes/s finishing, by type and outcome.',
        'short',
        [
          q(
            `sum by (node_type, outcome) (rate(workflow_node_duration_seconds_count[${RI}]))`,
            '{{node_type}} {{outcome}}',
          ),
        ],
        stacked,
      ),
      ts('Outbound HTTP p95 per purpose', 'Model and HTTP-node calls the platform makes, by purpose.', 's', [
        q(
          `histogram_quantile(0.95, sum by (le, purpose) (rate(outbound_http_request_duration_seconds_bucket[${RI}])))`,
          '{{purpose}}',
        ),
      ]),
      ts('Outbound HTTP per outcome', 'Outbound calls/s, by purpose and outcome.', 'short', [
        q(
          `sum by (purpose, outcome) (rate(outbound_http_request_duration_seconds_count[${RI}]))`,
          '{{purpose}} {{outcome}}',
        ),
      ]),
    ],
  ],
  ['Resources', resourcePanels('service="workflows"')],
];
