import {
  commonShape,
  processRoleShape,
  env,
  kafkaShape,
  loadConfig,
  migrateOnStartShape,
  serviceSigningShape,
  serviceTrustShape,
} from '@platform/config';
import { z } from 'zod';
import { deliveryConfigShape } from './domain/delivery/delivery-config.js';

const prefix = (fallback: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9._:-]*$/)
    .max(100)
    .default(fallback);

const schema = z.object({
  ...commonShape,
  /** `api`: no delivery workers nor events consumer; `worker`: only those (deploy/README.md). */
  ...processRoleShape,
  /** Principal signature checks; no internal-only methods here, so no caller keys (docs/security.md). */
  ...serviceTrustShape([]),
  /** Its own key for the service tokens of its outgoing calls (docs/security.md). */
  ...serviceSigningShape,
  GRPC_PORT: env.port().default(50063),
  MONGO_URL: env.mongoUrl(),
  /** false: the indexes are built by `node dist/main.js migrate`, start-up only checks them (deploy/README.md "Migrations"). */
  ...migrateOnStartShape,
  /** Bulk e-mail quotas (per sender per hour, per recipient per day). */
  REDIS_URL: env.redisUrl(),
  /** Automatic-notification events in, `default`-queue tasks out. */
  ...kafkaShape,
  /** Identity: users, teams and memberships (DirectoryService); site settings (GetEffectiveSettings). */
  IDENTITY_GRPC_ADDR: env.hostPort(),
  /** Prefix of this service's Redis keys; tests use a unique one. */
  REDIS_KEY_PREFIX: prefix('notifications:'),
  /** Prefix of `platform.notification-events` (tests isolate themselves; production leaves it empty). */
  EVENTS_TOPIC_PREFIX: prefix(''),
  /** Consumer group of the automatic-notification consumer (shared by replicas). */
  NOTIFICATION_EVENTS_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .max(200)
    .default('notifications.notification-events'),
  /**
   * How long a built unit of the inbox read model is trusted before it is rebuilt from MongoDB: the
   * bound on staleness after a process died between a MongoDB write and its Redis write.
   */
  INBOX_INDEX_TTL_MS: env.positiveInt().min(1_000).max(86_400_000).default(900_000),
  /**
   * How deep a notification list page may reach, as `page × page_size` (user and admin lists):
   * each page reads every row before it, so deeper pages are refused (422 / 1001 on `page`).
   */
  NOTIFICATION_PAGE_WINDOW: env.positiveInt().min(100).max(1_000_000).default(10_000),
  /** Delivery: lease, reconciler, outbound HTTP, SMTP trust, vendor API roots, queue prefix (docs/notifications-delivery.md). */
  ...deliveryConfigShape,
});

export type NotificationsConfig = z.infer<typeof schema>;

export function loadNotificationsConfig(
  source: Record<string, string | undefined> = process.env,
): NotificationsConfig {
  return loadConfig('notifications', schema, source);
}
