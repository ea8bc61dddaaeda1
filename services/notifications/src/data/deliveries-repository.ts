import { isDuplicateKeyError } from '@platform/mongo';
import type { Connection, Model } from 'mongoose';
import type { DeliveryErrorKey, FailureParams } from '../domain/delivery/delivery-ports.js';
import type { DeliveryOrigin } from '../domain/delivery/delivery-ports.js';
import { claimModel, deliveryModel, type ClaimDoc, type DeliveryDoc } from './models.js';

export type DueDelivery = { _id: string } & Partial<DeliveryOrigin>;

export interface FailureRecord {
  key: DeliveryErrorKey;
  params: FailureParams;
}

/**
 * FerretDB 1.24 has no transactions and applies an update as read, change, write back the whole
 * document, so two writers of one delivery can undo each other. Hence: a claim is won by a unique
 * insert (`delivery_claims`), only the claim's holder writes the delivery afterwards (serialized
 * in deliver.ts), and queue submissions are tracked in Redis, never on the document. Later writes
 * still name the claim token, so a worker whose lease lapsed changes nothing once another claimed.
 */
export class DeliveriesRepository {
  readonly model: Model<DeliveryDoc>;
  private readonly claims: Model<ClaimDoc>;

  constructor(connection: Connection) {
    this.model = deliveryModel(connection);
    this.claims = claimModel(connection);
  }

  async insert(docs: DeliveryDoc[]): Promise<void> {
    if (docs.length > 0) await this.model.insertMany(docs, { ordered: true });
  }

  async byNotifications(ids: readonly string[]): Promise<DeliveryDoc[]> {
    if (ids.length === 0) return [];
    return this.model
      .find({ notification_id: { $in: [...ids] } })
      .sort({ created_at: 1, channel: 1 })
      .lean<DeliveryDoc[]>();
  }

  async get(id: string): Promise<DeliveryDoc | null> {
    return this.model.findById(id).lean<DeliveryDoc>();
  }

  /**
   * Takes the next attempt of a delivery that is due (`pending` past `next_attempt_at`) or whose
   * claim lapsed (`sending` past `lease_until`): whoever inserts `<id>:<attempt>` first owns it.
   */
  async claim(id: string, now: Date, leaseMs: number, token: string): Promise<DeliveryDoc | null> {
    const doc = await this.get(id);
    if (!doc) return null;
    const due =
      (doc.status === 'pending' && doc.next_attempt_at.getTime() <= now.getTime()) ||
      (doc.status === 'sending' && (doc.lease_until?.getTime() ?? 0) < now.getTime());
    if (!due) return null;
    const attempt = doc.attempts + 1;
    try {
      await this.claims.create({ _id: `${id}:${attempt}`, delivery_id: id, token, created_at: now });
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
    const claimed = {
      status: 'sending' as const,
      lease_until: new Date(now.getTime() + leaseMs),
      claim_token: token,
      attempts: attempt,
      updated_at: now,
    };
    await this.model.updateOne({ _id: id }, { $set: claimed });
    return { ...doc, ...claimed };
  }

  async extendLease(id: string, token: string, until: Date): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: id, status: 'sending', claim_token: token },
      { $set: { lease_until: until } },
    );
    return result.modifiedCount === 1;
  }

  /** `note`: a partial problem worth showing on a successful delivery (some recipients failed). */
  async succeed(id: string, token: string, now: Date, note: FailureRecord | null = null): Promise<boolean> {
    return this.finish(id, token, {
      status: 'success',
      sent_at: now,
      updated_at: now,
      error_key: note?.key ?? null,
      error_params: note?.params ?? null,
    });
  }

  async fail(
    id: string,
    token: string,
    now: Date,
    error: FailureRecord,
    countFailure: boolean,
  ): Promise<boolean> {
    return this.finish(
      id,
      token,
      { status: 'failed', updated_at: now, error_key: error.key, error_params: error.params },
      countFailure,
    );
  }

  /** Back to `pending`, due at `at`; the reconciler submits it then. */
  async reschedule(
    id: string,
    token: string,
    now: Date,
    at: Date,
    error: FailureRecord | null,
    countFailure: boolean,
  ): Promise<boolean> {
    return this.finish(
      id,
      token,
      {
        status: 'pending',
        next_attempt_at: at,
        updated_at: now,
        ...(error ? { error_key: error.key, error_params: error.params } : {}),
      },
      countFailure,
    );
  }

  /** Records e-mail fan-out progress under the claim (a crash resumes from here). */
  async saveEmailProgress(
    id: string,
    token: string,
    progress: Pick<DeliveryDoc, 'email_cursor' | 'email_offset' | 'email_sent' | 'email_failed'>,
  ): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: id, claim_token: token, status: 'sending' },
      { $set: progress },
    );
    return result.modifiedCount === 1 || result.matchedCount === 1;
  }

  /**
   * Deliveries the reconciler should (re)submit: due `pending` ones and `sending` ones whose lease
   * ran out, with their origin (older documents have none: undefined fields).
   */
  async dueForSubmission(now: Date, limit: number): Promise<DueDelivery[]> {
    const fields = { _id: 1, trace_parent: 1, request_id: 1 };
    const [pending, stale] = await Promise.all([
      this.model
        .find({ status: 'pending', next_attempt_at: { $lte: now } }, fields)
        .sort({ next_attempt_at: 1 })
        .limit(limit)
        .lean<DueDelivery[]>(),
      this.model
        .find({ status: 'sending', lease_until: { $lt: now } }, fields)
        .limit(limit)
        .lean<DueDelivery[]>(),
    ]);
    return [...pending, ...stale];
  }

  /** Claim rows older than `before` (their deliveries finished or moved on long ago). */
  async pruneClaims(before: Date): Promise<void> {
    await this.claims.deleteMany({ created_at: { $lt: before } });
  }

  private async finish(
    id: string,
    token: string,
    set: Partial<DeliveryDoc>,
    countFailure = false,
  ): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: id, status: 'sending', claim_token: token },
      {
        $set: { ...set, lease_until: null, claim_token: null },
        ...(countFailure ? { $inc: { retry_count: 1 } } : {}),
      },
    );
    return result.modifiedCount === 1;
  }
}
