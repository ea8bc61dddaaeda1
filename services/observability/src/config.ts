import { commonShape, env, loadConfig, serviceTrustShape } from '@platform/config';
import { z } from 'zod';

const schema = z.object({
  ...commonShape,
  /** Principal signature and service-token checks (docs/security.md). */
  ...serviceTrustShape,
  GRPC_PORT: env.port().default(50066),
  DATABASE_URL: env.postgresUrl(),
});

export type ObservabilityConfig = z.infer<typeof schema>;

export function loadObservabilityConfig(
  source: Record<string, string | undefined> = process.env,
): ObservabilityConfig {
  return loadConfig('observability', schema, source);
}
