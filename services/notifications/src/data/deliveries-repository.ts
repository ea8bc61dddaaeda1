import { isDuplicateKeyError } from '@platform/mongo';
import mongoose, { type Connection, type Model } from 'mongoose';
import type { ChannelName, DeliverableNotification } from '../domain/delivery-port.js';
import type { DeliveryErrorKey, FailureParams } from '../domain/delivery/delivery-ports.js';
import type { DeliveryOrigin } from '../domain/delivery/delivery-ports.js';

export type DeliveryStatus = 'pending' | 'sending' | 'success' | 'failed';

/** One delivery of one notification over one channel (collection `deliveries`). */
export interface DeliveryDoc extends DeliveryOrigin {
  _id: string;
  notification_id: string;
  channel: ChannelName;
  status: DeliveryStatus;
  /** Failed attempts (transient or final); waits for a rate-limit slot do not count. */
  retry_count: number;
  /** Claims taken, whatever their outcome. */
  attempts: number;
  /** When a `pending` delivery is due. */
  next_attempt_at: Date;
  /** While `sending`: the claim holds until then; past it the reconciler hands the delivery on. */
  lease_until: Date | null;
  claim_token: string | null;
  error_key: DeliveryErrorKey | null;
  error_params: FailureParams | null;
  sent_at: Date | null;
  /** What to send, copied at creation so a deleted notification still goes out as created. */
  message: Pick<
    DeliverableNotification,
    'scope' | 'team_id' | 'user_id' | 'title' | 'content' | 'link_url' | 'type'
  >;
  /** E-mail fan-out: the next page of recipients and what went out so far. */
  email_cursor: string | null;
  /** Recipients of the current page already handled. */
  email_offset: number;
  email_sent: number;
  email_failed: number;
  created_at: Date;
  updated_at: Date;
}

const schema = new mongoose.Schema<DeliveryDoc>(
  {
    _id: { type: String, required: true },
    notification_id: { type: String, required: true },
    channel: { type: String, required: true },
    status: { type: String, required: true },
    retry_count: { type: Number, default: 0 },
    attempts: { type: Number, default: 0 },
    next_attempt_at: { type: Date, required: true },
    lease_until: { type: Date, default: null },
    claim_token: { type: String, default: null },
    error_key: { type: String, default: null },
    error_params: { type: mongoose.Schema.Types.Mixed, default: null },
    sent_at: { type: Date, default: null },
    message: { type: mongoose.Schema.Types.Mixed, required: true },
    email_cursor: { type: String, default: null },
    email_offset: { type: Number, default: 0 },
    email_sent: { type: Number, default: 0 },
    email_failed: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    trace_parent: { type: String, default: null },
    request_id: { type: String, default: null },
  },
  { versionKey: false, minimize: false },
);
// The admin list and the create response read deliveries by notification.
schema.index({ notification_id: 1, created_at: 1 });
// The reconciler's two scans: due pending work, and claims whose lease ran out.
schema.index({ status: 1, next_attempt_at: 1 });
schema.index({ status: 1, lease_until: 1 });

/**
 * One row per claimed attempt, `_id` = `<delivery id>:<attempt>`. FerretDB 1.24 runs
 * findAndModify and filtered updates as a read then a write without isolation, so fifty parallel
 * compare-and-sets on one document can all "win" (measured: up to 49 of 50). Its unique `_id`,
 * enforced by PostgreSQL, is atomic: the one insert that succeeds owns the attempt.
 */
interface ClaimDoc {
  _id: string;
  delivery_id: string;
  token: string;
  created_at: Date;
}

const claimSchema = new mongoose.Schema<ClaimDoc>(
  {
    _id: { type: String, required: true },
    delivery_id: { type: String, required: true },
    token: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);
claimSchema.index({ delivery_id: 1 });
claimSchema.index({ created_at: 1 });

function claimModel(connection: Connection): Model<ClaimDoc> {
  return (
    (connection.models.DeliveryClaim as Model<ClaimDoc> | undefined) ??
    connection.model('DeliveryClaim', claimSchema, 'delivery_claims')
  );
}

export function deliveryModel(connection: Connection): Model<DeliveryDoc> {
  return (
    (connection.models.Delivery as Model<DeliveryDoc> | undefined) ??
    connection.model('Delivery', schema, 'deliveries')
  );
}

/** A delivery due for (re)submission and where it came from. */
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
