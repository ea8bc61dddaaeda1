import { commonShape, env, kafkaShape, loadConfig } from '@platform/config';
import { z } from 'zod';
import { queueTopicPrefixShape } from '../config.js';

/**
 * The sandbox worker's variables (PROCESS_ROLE=sandbox; deploy/README.md "The sandbox worker"). On
 * purpose it takes no database, Redis, service key or address of another service: the process that
 * runs user code can reach Kafka (its own two topics, by ACL) and nothing else.
 */
const schema = z.object({
  ...commonShape,
  PROCESS_ROLE: z.literal('sandbox'),
  /** grpc.health.v1 only (the probes); it serves no API. */
  GRPC_PORT: env.port().default(50067),
  ...kafkaShape,
  ...queueTopicPrefixShape,
  /** Tasks run at once: one child process (one isolate) each. About one per core. */
  SANDBOX_CONCURRENCY: env.positiveInt().max(64).default(2),
});

export type SandboxWorkerConfig = z.infer<typeof schema> & {
  PRINCIPAL_SIGNING_PUBLIC_KEY: readonly string[];
};

export function loadSandboxWorkerConfig(
  source: Record<string, string | undefined> = process.env,
): SandboxWorkerConfig {
  // No API, so no caller is trusted: every call but grpc.health.v1 is refused.
  return { ...loadConfig('sandbox-worker', schema, source), PRINCIPAL_SIGNING_PUBLIC_KEY: [] };
}
