import { randomUUID } from 'node:crypto';
import type { NotificationDoc } from '../../src/data/models.js';
import type { StartedNotifications } from '../../src/notifications-service.js';
import { toDocument, type NewNotification } from '../../src/domain/store-notifications.js';

export type Seed = Partial<NewNotification> & Pick<NewNotification, 'scope'> & { created_at?: Date };

/**
 * Notifications written straight into the service's store (how they were created is the admin
 * create tests' business), so list tests need no identity directory calls.
 */
export async function seedNotifications(
  service: StartedNotifications,
  seeds: Seed[],
): Promise<NotificationDoc[]> {
  const base = Date.now() - 60_000;
  const docs = seeds.map((seed, index) => {
    const doc = toDocument(
      {
        id: randomUUID(),
        team_id: null,
        user_id: null,
        type: 'test.seeded',
        source: 'system',
        title: `seeded ${index}`,
        content: 'body',
        level: 'medium',
        data: null,
        link_url: null,
        expires_at: null,
        ...seed,
      },
      seed.created_at ?? new Date(base + index * 1000),
    );
    return doc;
  });
  await service.dependencies.models.notifications.insertMany(docs);
  return docs;
}
