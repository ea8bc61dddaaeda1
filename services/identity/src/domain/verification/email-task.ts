import { EMAIL_SEND_TASK, type EmailTaskArgs } from '@platform/contracts';
import type { SecretBox } from '@platform/crypto';
import { enqueueTask, type Queryable } from '@platform/outbox';

// The task's name and args are a contract with its worker (notifications): one copy, in contracts.
export { EMAIL_SEND_TASK, type EmailTaskArgs };

/**
 * Queues one mail (rule 5: success means queued) through the transactional outbox, in the
 * caller's transaction: it commits with the code or token it carries, and goes out once Kafka is
 * reachable, so a request never waits on Kafka. The args are sealed with the at-rest key: the
 * outbox row and the Kafka message hold only ciphertext. `id` is the idempotency key: the same id
 * is sent at most once even when Kafka redelivers.
 */
export async function enqueueEmail(
  tx: Queryable,
  secrets: SecretBox,
  topicPrefix: string,
  args: EmailTaskArgs,
  id: string,
): Promise<void> {
  await enqueueTask(tx, { queue: 'default', task: EMAIL_SEND_TASK, args, id, topicPrefix, seal: secrets });
}
