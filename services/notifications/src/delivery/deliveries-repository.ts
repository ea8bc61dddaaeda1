import mongoose, { type Connection, type Model } from 'mongoose';
import type { ChannelName, DeliverableNotification } from '../domain/delivery-port.js';
import type { DeliveryErrorKey, FailureParams } from '../adapters/channels/send-failure.js';

export type DeliveryStatus = 'pending' | 'sending' | 'success' | 'failed';

/** One delivery of one notification over one channel (collection `deliveries`). */
export interface DeliveryDoc {
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
  /** Last time it was put on the queue, and how often (task ids are `<id>:<submissions>`). */
  submitted_at: Date | null;
  submissions: number;
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
    submitted_at: { type: Date, default: null },
    submissions: { type: Number, default: 0 },
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
  },
  { versionKey: false, minimize: false },
);
// The admin list and the create response read deliveries by notification.
schema.index({ notification_id: 1, created_at: 1 });
// The reconciler's two scans: due pending work, and claims whose lease ran out.
schema.index({ status: 1, next_attempt_at: 1 });
schema.index({ status: 1, lease_until: 1 });

export function deliveryModel(connection: Connection): Model<DeliveryDoc> {
  return (
    (connection.models.Delivery as Model<DeliveryDoc> | undefined) ??
    connection.model('Delivery', schema, 'deliveries')
  );
}

export interface FailureRecord {
  key: DeliveryErrorKey;
  params: FailureParams;
}

/**
 * Every state change is a single-document compare-and-set (FerretDB has no multi-document
 * transactions): a claim moves `pending` (due) or `sending` (lease run out) to `sending` with a
 * fresh token, and every later write names that token, so a worker that lost its claim changes
 * nothing.
 */
export class DeliveriesRepository {
  readonly model: Model<DeliveryDoc>;

  constructor(connection: Connection) {
    this.model = deliveryModel(connection);
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

  async claim(id: string, now: Date, leaseMs: number, token: string): Promise<DeliveryDoc | null> {
    return this.model
      .findOneAndUpdate(
        {
          _id: id,
          $or: [
            { status: 'pending', next_attempt_at: { $lte: now } },
            { status: 'sending', lease_until: { $lt: now } },
          ],
        },
        {
          $set: {
            status: 'sending',
            lease_until: new Date(now.getTime() + leaseMs),
            claim_token: token,
            updated_at: now,
          },
          $inc: { attempts: 1 },
        },
        { new: true },
      )
      .lean<DeliveryDoc>();
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
        submitted_at: null,
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

  /** Deliveries the reconciler should (re)submit: due `pending` ones and `sending` ones whose lease ran out. */
  async dueForSubmission(now: Date, submittedBefore: Date, limit: number): Promise<string[]> {
    const notRecentlySubmitted = {
      $or: [{ submitted_at: null }, { submitted_at: { $lt: submittedBefore } }],
    };
    const [pending, stale] = await Promise.all([
      this.model
        .find({ status: 'pending', next_attempt_at: { $lte: now }, ...notRecentlySubmitted }, { _id: 1 })
        .sort({ next_attempt_at: 1 })
        .limit(limit)
        .lean<{ _id: string }[]>(),
      this.model
        .find({ status: 'sending', lease_until: { $lt: now }, ...notRecentlySubmitted }, { _id: 1 })
        .limit(limit)
        .lean<{ _id: string }[]>(),
    ]);
    return [...pending, ...stale].map((d) => d._id);
  }

  /** Marks one submission (compare-and-set on `submitted_at`); the new count, or null when another replica did. */
  async markSubmitted(id: string, now: Date, submittedBefore: Date): Promise<number | null> {
    const doc = await this.model
      .findOneAndUpdate(
        {
          _id: id,
          status: { $in: ['pending', 'sending'] },
          $or: [{ submitted_at: null }, { submitted_at: { $lt: submittedBefore } }],
        },
        { $set: { submitted_at: now }, $inc: { submissions: 1 } },
        { new: true, projection: { submissions: 1 } },
      )
      .lean<{ submissions: number }>();
    return doc ? doc.submissions : null;
  }

  /** Lets the reconciler resubmit at once (an enqueue that failed). */
  async clearSubmitted(id: string): Promise<void> {
    await this.model.updateOne(
      { _id: id, status: { $in: ['pending', 'sending'] } },
      { $set: { submitted_at: null } },
    );
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
