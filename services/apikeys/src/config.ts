import { commonShape, env, loadConfig } from '@platform/config';
import { z } from 'zod';

const schema = z.object({
  ...commonShape,
  GRPC_PORT: env.port().default(50062),
  DATABASE_URL: env.postgresUrl(),
});

export type ApiKeysConfig = z.infer<typeof schema>;

export function loadApiKeysConfig(source: Record<string, string | undefined> = process.env): ApiKeysConfig {
  return loadConfig('apikeys', schema, source);
}
