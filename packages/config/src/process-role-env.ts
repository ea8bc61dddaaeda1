import { z } from 'zod';

/**
 * What one process of a service runs (deploy/README.md "API and workers apart"):
 * - `all`: everything, as one process per service has always done (local stack, tests, small sites);
 * - `api`: the gRPC API and the loops the API's own writes need (outbox relays), no user workload;
 * - `worker`: only the queue workers and consumers (and the loops that belong with them), serving
 *   nothing but `grpc.health.v1` and metrics, so it scales on its own signal (Kafka consumer lag).
 */
export const PROCESS_ROLES = ['all', 'api', 'worker'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

/** PROCESS_ROLE of a service with workers of its own (workflows, notifications, observability). */
export const processRoleShape = {
  PROCESS_ROLE: z.enum(PROCESS_ROLES, { message: 'must be all, api or worker' }).default('all'),
};

/**
 * PROCESS_ROLE of every other service: it has no separate workers, so `api` is the same process as
 * `all`, and `worker` is refused (a worker Deployment of it would serve nothing).
 */
export const apiOnlyRoleShape = {
  PROCESS_ROLE: z
    .enum(['all', 'api'], { message: 'must be all or api (this service has no separate workers)' })
    .default('all'),
};

/** True when the process serves the domain API (roles `all` and `api`). */
export const servesApi = (role: ProcessRole): boolean => role !== 'worker';

/** True when the process runs the workers and consumers (roles `all` and `worker`). */
export const runsWorkers = (role: ProcessRole): boolean => role !== 'api';

/**
 * Shutdown (packages/runtime run-service.ts): on SIGTERM every `grpc.health.v1` status goes
 * NOT_SERVING at once and the process keeps serving this long before it drains, so a load balancer
 * that polls health stops sending first. 0 under Kubernetes, whose preStop sleep does the same.
 */
export const shutdownShape = {
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
};
