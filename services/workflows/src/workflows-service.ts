import { servesApi } from '@platform/config';
import { createOutgoingTrust, type ServiceRegistration } from '@platform/grpc';
import type { Logger } from '@platform/logger';
import { serviceTopics } from '@platform/kafka';
import { connectInfrastructure } from '@platform/runtime';
import { runsRunWorker, type WorkflowsConfig } from './config.js';
import type { WorkflowsDependencies } from './deps.js';
import { identityTeamDirectory } from './adapters/identity-teams.js';
import { createNodeRuntime } from './adapters/node-dependencies.js';
import { SandboxRunner } from './adapters/sandbox-runner.js';
import { createNodeModules } from './domain/runs/nodes/index.js';
import { VersionStore } from './data/version-store.js';
import { workflowVersionsGrpc } from './grpc/workflow-versions-grpc.js';
import { workflowsGrpc } from './grpc/workflows-grpc.js';
import { startRunsArea, type RunsArea } from './runs-area.js';
import { sandboxTopicPrefixes } from './sandbox-worker/protocol.js';

/** Its Postgres migrations (SQL is not compiled: src/, beside dist/ in the image). */
export const MIGRATIONS = new URL('../src/data/migrations', import.meta.url);

export interface StartedWorkflows {
  dependencies: WorkflowsDependencies;
  runs: RunsArea;
  services: ServiceRegistration[];
  /** SIGTERM: the run worker stops claiming at once (runService calls it before draining gRPC). */
  beginDrain(): void;
  stop(): Promise<void>;
}

/**
 * The workflows service's composition root, separate from main.ts so tests can start the real
 * service in-process on their own database.
 */
export async function startWorkflows(
  config: WorkflowsConfig,
  logger: Logger,
  version: string,
  now: () => Date = () => new Date(),
): Promise<StartedWorkflows> {
  const { close: closeInfrastructure, ...connections } = await connectInfrastructure(
    config,
    logger,
    'workflows',
    MIGRATIONS,
    // The topics it produces to or consumes: checked at start with KAFKA_TOPIC_MODE=verify.
    serviceTopics('workflows', sandboxTopicPrefixes(config.QUEUE_TOPIC_PREFIX)),
  );
  // The ephemeral /workflow-versions store (Redis, shared by replicas); a deleted workflow's
  // versions go with it.
  const versions = new VersionStore(connections.redis, {
    maxPerWorkflow: config.VERSIONS_MAX_PER_WORKFLOW,
  });
  // The node set's outside world: identity's allowlists (read through a 5 s cache), models.
  const nodeRuntime = createNodeRuntime(config, logger);
  // Code nodes go to the sandbox workers; only a process that executes runs sends them.
  const codeRunner = runsRunWorker(config)
    ? new SandboxRunner({
        kafka: connections.kafka,
        logger,
        topicPrefix: config.QUEUE_TOPIC_PREFIX,
        memoryMb: config.CODE_NODE_MEMORY_MB,
        lostAfterMs: config.SANDBOX_LOST_AFTER_MS,
      })
    : undefined;
  codeRunner?.start();
  const dependencies: WorkflowsDependencies = {
    config,
    logger,
    ...connections,
    teams: identityTeamDirectory(
      config.IDENTITY_GRPC_ADDR,
      createOutgoingTrust({ service: 'workflows', serviceSigningKey: config.SERVICE_SIGNING_PRIVATE_KEY }).to(
        'identity',
      ),
    ),
    purgers: [versions],
    nodeModules: createNodeModules({ ...nodeRuntime.deps, ...(codeRunner ? { codeRunner } : {}) }),
    now,
    version,
  };
  const runs = startRunsArea(dependencies);
  return {
    dependencies,
    runs,
    // PROCESS_ROLE=worker serves only grpc.health.v1 (runs.services is empty there too).
    services: servesApi(config.PROCESS_ROLE)
      ? [workflowsGrpc(dependencies), workflowVersionsGrpc({ ...dependencies, versions }), ...runs.services]
      : [],
    beginDrain: () => runs.beginDrain(),
    async stop() {
      await runs.stop();
      await codeRunner?.stop();
      dependencies.teams.close();
      await nodeRuntime.stop();
      await closeInfrastructure();
    },
  };
}
