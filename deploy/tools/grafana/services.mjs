// The services: gRPC RED per service and method, served and made.
import { q, quantiles, ts, stacked, RI, SVC, resourcePanels } from './builders.mjs';

export const servicesRows = [
  [
    'Calls served (gRPC server)',
    [
      ts('Calls per service', 'Calls/s each service served.', 'reqps', [
        q(`sum by (service) (rate(grpc_server_handling_seconds_count{${SVC}}[${RI}]))`, '{{service}}'),
      ]),
      ts('Calls per method', 'Calls/s by gRPC method.', 'reqps', [
        q(
          `sum by (grpc_service, grpc_method) (rate(grpc_server_handling_seconds_count{${SVC}}[${RI}]))`,
          '{{grpc_service}}/{{grpc_method}}',
        ),
      ]),
      ts(
        'Errors per code',
        'Calls/s answered with a status other than OK.',
        'reqps',
        [
          q(
            `sum by (service, grpc_code) (rate(grpc_server_handling_seconds_count{${SVC},grpc_code!="OK"}[${RI}]))`,
            '{{service}} {{grpc_code}}',
          ),
        ],
        stacked,
      ),
      ts(
        'p99 per service',
        'p99 of the calls served (budgets: 1 s; identity 2 s; observability 2.5 s).',
        's',
        [
          q(
            `histogram_quantile(0.99, sum by (le, service) (rate(grpc_server_handling_seconds_bucket{${SVC},grpc_method!~"StreamRunEvents|TestModel|DiscoverModels|TestChannel"}[${RI}])))`,
            '{{service}}',
          ),
        ],
      ),
      ts('p99 per method (slowest 10)', 'p99 per gRPC method.', 's', [
        q(
          `topk(10, histogram_quantile(0.99, sum by (le, grpc_service, grpc_method) (rate(grpc_server_handling_seconds_bucket{${SVC}}[${RI}]))))`,
          '{{grpc_service}}/{{grpc_method}}',
        ),
      ]),
      ts(
        'Latency p50 / p95 / p99',
        'All calls served by the selected services.',
        's',
        quantiles('grpc_server_handling_seconds', SVC),
      ),
    ],
  ],
  [
    'Calls made (gRPC client)',
    [
      ts('Calls per callee', 'Calls/s the selected processes made, by the service called.', 'reqps', [
        q(
          `sum by (service, grpc_service) (rate(grpc_client_handling_seconds_count{${SVC}}[${RI}]))`,
          '{{service}} → {{grpc_service}}',
        ),
      ]),
      ts(
        'Failed calls per code',
        'Calls/s that ended with a status other than OK.',
        'reqps',
        [
          q(
            `sum by (service, grpc_service, grpc_code) (rate(grpc_client_handling_seconds_count{${SVC},grpc_code!="OK"}[${RI}]))`,
            '{{service}} → {{grpc_service}} {{grpc_code}}',
          ),
        ],
        stacked,
      ),
      ts(
        'p99 per callee',
        'p99 of the calls made, as the caller saw them (network and queueing included).',
        's',
        [
          q(
            `histogram_quantile(0.99, sum by (le, service, grpc_service) (rate(grpc_client_handling_seconds_bucket{${SVC}}[${RI}])))`,
            '{{service}} → {{grpc_service}}',
          ),
        ],
      ),
    ],
  ],
  ['Resources', resourcePanels(SVC)],
];
