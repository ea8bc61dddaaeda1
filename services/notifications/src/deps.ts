import type { KafkaClient, Producer, TaskQueue } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import type { Connection } from '@platform/mongo';
import type { Redis } from '@platform/redis';
import type { Directory } from './domain/identity-port.js';
import type { NotificationsConfig } from './config.js';
import type { BulkEmailQuota } from './data/bulk-email-quota.js';
import type { InboxIndex } from './data/inbox-index.js';
import type { NotificationModels } from './data/models.js';
import type { DeliveryPort } from './domain/delivery-port.js';

// Kept apart from the composition root (notifications-service.ts) so use cases can name their
// dependencies without importing the file that imports them: no import cycles.
/** What every notifications use case may depend on, built once at start. */
export interface NotificationsDependencies {
  config: NotificationsConfig;
  logger: Logger;
  connection: Connection;
  models: NotificationModels;
  redis: Redis;
  kafka: KafkaClient;
  producer: Producer;
  /** The `default` work queue (`email.send` for bulk e-mail). */
  queue: TaskQueue;
  directory: Directory;
  bulkEmailQuota: BulkEmailQuota;
  /** The inbox read model in Redis: first pages and unread counts (domain/inbox-read-model.ts). */
  inbox: InboxIndex;
  /** Deliveries over the external channels (src/delivery-area.ts, src/domain/delivery/). */
  delivery: DeliveryPort;
  /** The time expiry, quotas and calendar days go by; tests pass a clock they move. */
  now: () => Date;
  version: string;
}
