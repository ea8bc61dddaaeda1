import { commonShape, env, loadConfig, serviceTrustShape } from '@platform/config';
import { z } from 'zod';

const schema = z.object({
  ...commonShape,
  /** Principal signature and service-token checks (docs/security.md). */
  ...serviceTrustShape,
  GRPC_PORT: env.port().default(50065),
  DATABASE_URL: env.postgresUrl(),
});

export type WorkflowsConfig = z.infer<typeof schema>;

export function loadWorkflowsConfig(
  source: Record<string, string | undefined> = process.env,
): WorkflowsConfig {
  return loadConfig('workflows', schema, source);
}
