import { commonShape, env, loadConfig, serviceTrustShape } from '@platform/config';
import { z } from 'zod';

const schema = z.object({
  ...commonShape,
  /** Principal signature and service-token checks (docs/security.md). */
  ...serviceTrustShape,
  GRPC_PORT: env.port().default(50063),
  MONGO_URL: env.mongoUrl(),
});

export type NotificationsConfig = z.infer<typeof schema>;

export function loadNotificationsConfig(
  source: Record<string, string | undefined> = process.env,
): NotificationsConfig {
  return loadConfig('notifications', schema, source);
}
