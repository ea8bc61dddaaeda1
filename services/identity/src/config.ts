import { commonShape, env, loadConfig } from '@platform/config';
import { z } from 'zod';

const schema = z.object({
  ...commonShape,
  GRPC_PORT: env.port().default(50061),
  DATABASE_URL: env.postgresUrl(),
  REDIS_URL: env.redisUrl(),
  KAFKA_BROKERS: env.hostPorts(),
  SECRET_KEY: env.secretKey(),
  /** Public URL of the web app, for links in verification and reset mails. */
  PUBLIC_WEB_URL: z.url().default('http://localhost:8080'),
});

export type IdentityConfig = z.infer<typeof schema>;

export function loadIdentityConfig(source: Record<string, string | undefined> = process.env): IdentityConfig {
  return loadConfig('identity', schema, source);
}
