// The edge: the gateway's RED by route, status and code class, latency quantiles.
import { q, quantiles, ts, stacked, RI, SLOW_ROUTES, resourcePanels } from './builders.mjs';

export const edgeRows = [
  [
    'Traffic',
    [
      ts('Requests per route', 'Requests/s by route template (never the raw path).', 'reqps', [
        q(`sum by (route) (rate(http_server_request_duration_seconds_count[${RI}]))`, '{{route}}'),
      ]),
      ts(
        'Requests per status',
        'Requests/s by HTTP status.',
        'reqps',
        [q(`sum by (status) (rate(http_server_request_duration_seconds_count[${RI}]))`, '{{status}}')],
        stacked,
      ),
      ts('Requests per method', 'Requests/s by HTTP method.', 'reqps', [
        q(`sum by (method) (rate(http_server_request_duration_seconds_count[${RI}]))`, '{{method}}'),
      ]),
    ],
  ],
  [
    'Errors',
    [
      ts(
        '5xx ratio',
        'Share of requests answered 5xx (alert GatewayErrorRatioHigh at 5% and 20%).',
        'percentunit',
        [
          q(
            `sum(rate(http_server_request_duration_seconds_count{status=~"5.."}[${RI}])) / sum(rate(http_server_request_duration_seconds_count[${RI}]))`,
            '5xx',
          ),
        ],
      ),
      ts(
        'Errors per code class',
        'Requests/s whose envelope carried an error code, by code class.',
        'reqps',
        [
          q(
            `sum by (code_class) (rate(http_server_request_duration_seconds_count{code_class!="ok",code_class!="none"}[${RI}]))`,
            '{{code_class}}',
          ),
        ],
        stacked,
      ),
      ts('5xx per route', 'Requests/s answered 5xx, by route.', 'reqps', [
        q(
          `sum by (route, status) (rate(http_server_request_duration_seconds_count{status=~"5.."}[${RI}]))`,
          '{{route}} {{status}}',
        ),
      ]),
    ],
  ],
  [
    'Latency',
    [
      ts(
        'Latency p50 / p95 / p99',
        'All routes but the run stream and the vendor-bound ones (budget: p99 1 s).',
        's',
        quantiles('http_server_request_duration_seconds', `route!~"${SLOW_ROUTES}"`),
      ),
      ts('p99 per route (slowest 10)', 'p99 per route template.', 's', [
        q(
          `topk(10, histogram_quantile(0.99, sum by (le, route) (rate(http_server_request_duration_seconds_bucket[${RI}]))))`,
          '{{route}}',
        ),
      ]),
      ts(
        'Run streams closed',
        'Event-stream requests ending per second (a stream is observed when it closes).',
        'reqps',
        [
          q(
            `sum(rate(http_server_request_duration_seconds_count{route=~".*/stream"}[${RI}]))`,
            'closed streams',
          ),
        ],
      ),
    ],
  ],
  ['Resources', resourcePanels('service="gateway"')],
];
