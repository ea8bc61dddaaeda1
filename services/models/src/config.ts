import { commonShape, env, loadConfig, serviceTrustShape } from '@platform/config';
import { z } from 'zod';

const schema = z.object({
  ...commonShape,
  /** Principal signature and service-token checks (docs/security.md). */
  ...serviceTrustShape,
  GRPC_PORT: env.port().default(50064),
  DATABASE_URL: env.postgresUrl(),
});

export type ModelsConfig = z.infer<typeof schema>;

export function loadModelsConfig(source: Record<string, string | undefined> = process.env): ModelsConfig {
  return loadConfig('models', schema, source);
}
