import type { Logger } from '@platform/logger';
import { RedisLock, type Redis } from '@platform/redis';
import type { DeliveriesRepository } from '../../data/deliveries-repository.js';
import { runAsOrigin } from './delivery-origin.js';

export interface ReconcilerOptions {
  repo: DeliveriesRepository;
  redis: Redis;
  logger: Logger;
  intervalMs: number;
  /** Submits one delivery unless it already sits on the queue (submit.ts). */
  submit(id: string): Promise<unknown>;
  now(): number;
  /** Deliveries handled per pass. Default 500. */
  batchSize?: number;
  /** Lock key; one replica scans per pass. */
  lockKey?: string;
}

/** Claim rows are kept a week (far beyond any lease), pruned about hourly. */
const CLAIM_RETENTION_MS = 7 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;

export interface Reconciler {
  /** One pass now (tests call it instead of waiting for the timer); how many were submitted. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Re-submits what the queue lost or never got: `pending` deliveries that are due (a retry's time
 * has come, a rate-limit wait ended, the first enqueue failed because Kafka was down) and `sending`
 * ones whose lease ran out (the worker died mid-send). One replica per pass (a Redis lock); the
 * claim makes a duplicate submission harmless anyway.
 */
export function startReconciler(options: ReconcilerOptions): Reconciler {
  const lock = new RedisLock(options.redis, { prefix: 'notifications:lock:' });
  const lockKey = options.lockKey ?? 'delivery-reconciler';
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;
  let lastPrune = 0;

  const pass = async (): Promise<number> => {
    const token = await lock.acquire(lockKey, Math.max(options.intervalMs, 1_000));
    if (!token) return 0;
    let submitted = 0;
    try {
      const now = new Date(options.now());
      const due = await options.repo.dueForSubmission(now, options.batchSize ?? 500);
      for (const delivery of due) {
        if (stopped) break;
        // Kafka down: the enqueue throws and ends this pass; the next pass tries again. Submitted
        // as work of its origin, so the next attempt is in the trace that scheduled the delivery.
        if (await runAsOrigin(delivery, () => options.submit(delivery._id))) submitted += 1;
      }
      if (now.getTime() - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = now.getTime();
        await options.repo.pruneClaims(new Date(now.getTime() - CLAIM_RETENTION_MS));
      }
    } finally {
      await lock.release(lockKey, token).catch(() => undefined);
    }
    return submitted;
  };

  const runOnce = (): Promise<number> => {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      runOnce()
        .then((count) => {
          if (count > 0) options.logger.info({ submitted: count }, 'reconciler re-submitted deliveries');
        })
        .catch((err: unknown) => options.logger.warn({ err }, 'reconciler pass failed'))
        .finally(schedule);
    }, options.intervalMs);
    timer.unref();
  };
  schedule();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
