import type { TaskQueue } from '@platform/kafka';
import type { DeliveriesRepository } from './deliveries-repository.js';

/** Task on the `default` queue that runs one attempt of a delivery. */
export const DELIVER_TASK = 'notifications.deliver';

export interface DeliverTaskArgs {
  delivery_id: string;
}

/**
 * Puts a delivery on the queue once per submission: `submitted_at` is compare-and-set first (so
 * replicas do not submit the same delivery together), the task id is `<id>:<submissions>` (a
 * redelivered message is handled once), and a failed enqueue clears the mark so the reconciler
 * tries again on its next pass.
 */
export async function submitDelivery(
  repo: DeliveriesRepository,
  queue: TaskQueue,
  id: string,
  now: Date,
  resubmitAfterMs: number,
): Promise<boolean> {
  const count = await repo.markSubmitted(id, now, new Date(now.getTime() - resubmitAfterMs));
  if (count === null) return false;
  try {
    await queue.enqueue<DeliverTaskArgs>(
      'default',
      DELIVER_TASK,
      { delivery_id: id },
      { id: `${id}:${count}`, key: id },
    );
    return true;
  } catch (err) {
    await repo.clearSubmitted(id).catch(() => undefined);
    throw err;
  }
}
