import { TaskQueue, type Producer } from '@platform/kafka';

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
 * Queues one mail (rule 5: success means queued). `id` is the idempotency key: the same id is
 * sent at most once even when Kafka redelivers.
 */
export async function enqueueEmail(
  producer: Producer,
  topicPrefix: string,
  args: EmailTaskArgs,
  id: string,
): Promise<void> {
  await new TaskQueue(producer, { topicPrefix }).enqueue('default', EMAIL_SEND_TASK, args, { id });
}
