import { randomUUID } from 'node:crypto';
import type { TaskQueue } from '@platform/kafka';
import type { Redis } from '@platform/redis';

/** Task on the `default` queue that runs one attempt of a delivery. */
export const DELIVER_TASK = 'notifications.deliver';

export interface DeliverTaskArgs {
  delivery_id: string;
}

/**
 * Which deliveries sit on the queue right now: `SET NX PX` per delivery in Redis (atomic, unlike
 * a FerretDB compare-and-set), cleared by the worker that claims it and by a failed enqueue, and
 * expiring after `resubmitAfterMs` so a lost message is submitted again.
 */
export class SubmissionMarks {
  constructor(
    private readonly redis: Redis,
    private readonly resubmitAfterMs: number,
    private readonly prefix = 'notifications:submitted:',
  ) {}

  async mark(id: string): Promise<boolean> {
    return (await this.redis.set(this.prefix + id, '1', 'PX', this.resubmitAfterMs, 'NX')) === 'OK';
  }

  async clear(id: string): Promise<void> {
    await this.redis.del(this.prefix + id);
  }
}

/**
 * Puts a delivery on the queue unless it is already there: a fresh task id per submission (a
 * redelivered message is still handled once), the delivery id as the partition key. A failed
 * enqueue clears the mark so the reconciler tries again on its next pass.
 */
export async function submitDelivery(marks: SubmissionMarks, queue: TaskQueue, id: string): Promise<boolean> {
  if (!(await marks.mark(id))) return false;
  try {
    await queue.enqueue<DeliverTaskArgs>(
      'default',
      DELIVER_TASK,
      { delivery_id: id },
      { id: `${id}:${randomUUID()}`, key: id },
    );
    return true;
  } catch (err) {
    await marks.clear(id).catch(() => undefined);
    throw err;
  }
}
