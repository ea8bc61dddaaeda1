import { commonShape, env, loadConfig } from '@platform/config';
import { z } from 'zod';

const schema = z.object({
  ...commonShape,
  GRPC_PORT: env.port().default(50061),
  DATABASE_URL: env.postgresUrl(),
});

export type IdentityConfig = z.infer<typeof schema>;

export function loadIdentityConfig(source: Record<string, string | undefined> = process.env): IdentityConfig {
  return loadConfig('identity', schema, source);
}
