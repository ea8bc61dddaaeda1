import type { Pool } from '@platform/db';
import type { OutgoingTrust, ServiceRegistration } from '@platform/grpc';
import type { Producer } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { OutboxRelay } from '@platform/outbox';
import { identityTeamDirectory } from './adapters/team-directory.js';
import type { GrantsDeps } from './domain/grants/grants-deps.js';
import { UsageKeyPruner } from './domain/quota/usage-key-pruner.js';
import { grantsGrpc, quotaGrpc } from './grpc/grants-grpc.js';

export interface GrantsAreaOptions {
  pool: Pool;
  producer: Producer;
  logger: Logger;
  identityAddress: string;
  /** models' outgoing credentials (its own service key). */
  trust: OutgoingTrust;
  usageKeyRetentionDays: number;
  now: () => Date;
}

export interface GrantsArea {
  deps: GrantsDeps;
  services: ServiceRegistration[];
  /** Publishes grant events from the outbox (tests flush it). */
  outbox: OutboxRelay;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Team grants and quotas, built for the composition root (models-service.ts): identity's team
 * directory, the outbox relay that publishes grant notifications, the idempotency-key pruner.
 */
export function buildGrantsArea(options: GrantsAreaOptions): GrantsArea {
  const teams = identityTeamDirectory(options.identityAddress, options.trust.to('identity'));
  const deps: GrantsDeps = { pool: options.pool, logger: options.logger, teams, now: options.now };
  const outbox = new OutboxRelay({ pool: options.pool, producer: options.producer, logger: options.logger });
  const pruner = new UsageKeyPruner(deps, options.usageKeyRetentionDays);
  return {
    deps,
    services: [grantsGrpc(deps), quotaGrpc(deps)],
    outbox,
    async start() {
      await outbox.start();
      pruner.start();
    },
    async stop() {
      pruner.stop();
      await outbox.stop();
      teams.close();
    },
  };
}
