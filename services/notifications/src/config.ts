import { commonShape, env, kafkaShape, loadConfig, serviceTrustShape } from '@platform/config';
import { z } from 'zod';
import { deliveryConfigShape } from './delivery/delivery-config.js';

const schema = z.object({
  ...commonShape,
  /** Principal signature and service-token checks (docs/security.md). */
  ...serviceTrustShape,
  GRPC_PORT: env.port().default(50063),
  MONGO_URL: env.mongoUrl(),
  REDIS_URL: env.redisUrl(),
  /** Brokers, and SASL/TLS when the cluster asks for them. */
  ...kafkaShape,
  /** Identity: site settings (GetEffectiveSettings) and the user/team directory. */
  IDENTITY_GRPC_ADDR: env.hostPort(),
  /** Delivery: lease, reconciler, outbound HTTP, SMTP trust, vendor API roots (docs/notifications-delivery.md). */
  ...deliveryConfigShape,
});

export type NotificationsConfig = z.infer<typeof schema>;

export function loadNotificationsConfig(
  source: Record<string, string | undefined> = process.env,
): NotificationsConfig {
  return loadConfig('notifications', schema, source);
}
