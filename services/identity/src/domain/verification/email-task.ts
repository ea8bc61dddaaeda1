import type { SecretBox } from '@platform/crypto';
import { enqueueTask, type Queryable } from '@platform/outbox';

/** Task name of an outgoing mail on the `default` work queue. */
export const EMAIL_SEND_TASK = 'email.send';

/** Args of `email.send`: a complete, already localized message. */
export interface EmailTaskArgs {
  to: string;
  subject: string;
  text: string;
  html: string;
  locale: string;
}

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
