import type { CHANNEL_TEST_OUTCOMES, NameOf } from '@platform/contracts';
import { Schema, type Connection, type Model } from 'mongoose';
import type { ChannelName, DeliverableNotification } from '../domain/delivery-port.js';
import type { DeliveryErrorKey, DeliveryOrigin, FailureParams } from '../domain/delivery/delivery-ports.js';

/**
 * A notification is stored once, whatever its audience: a `team` or `global` notification is one
 * document, never a copy per recipient. `audience` folds scope and target into one indexed key
 * (`g`, `t:<team id>`, `u:<user id>`) so "what may this caller see" is one index range per
 * audience the caller belongs to (see domain/visible-query.ts).
 */
export interface NotificationDoc {
  _id: string;
  scope: 'global' | 'team' | 'user';
  audience: string;
  team_id: string | null;
  user_id: string | null;
  type: string;
  source: string;
  title: string;
  content: string;
  level: string;
  data: Record<string, unknown> | null;
  link_url: string | null;
  status: 'active';
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * That one user has read one notification: `_id` is `<notification id>:<user id>`, so the pair is
 * unique by the primary key itself (no race between concurrent mark-read calls can insert two).
 * `audience` and `expires_at` are copied from the notification so the unread count is two counts
 * over indexes, with no join.
 */
export interface ReadDoc {
  _id: string;
  notification_id: string;
  user_id: string;
  audience: string;
  expires_at: Date | null;
  read_at: Date;
}

/** Written before a delete; a failed write means no delete. */
export interface DeleteAuditDoc {
  _id: string;
  action: 'notification.delete';
  notification_id: string;
  actor_user_id: string;
  actor_username: string;
  ip: string;
  user_agent: string;
  request_id: string;
  at: Date;
  snapshot: Record<string, unknown>;
}

/**
 * The idempotency key of an automatic event, apart from the notification's UUID: the first delivery
 * fixes which notification id the key stands for; a redelivery finds it and creates nothing new.
 */
export interface EventKeyDoc {
  _id: string;
  notification_id: string;
  type: string;
  /** Set once the notification exists and its deliveries were handed over. */
  completed_at: Date | null;
  created_at: Date;
}

/** The automatic-notification configuration (one document, `_id: 'auto-notifications'`). */
export interface AutoConfigDoc {
  _id: string;
  channels: string[];
  enabled_types: string[];
  updated_at: Date;
  updated_by: string;
}

const notificationSchema = new Schema<NotificationDoc>(
  {
    _id: { type: String, required: true },
    scope: { type: String, required: true },
    audience: { type: String, required: true },
    team_id: { type: String, default: null },
    user_id: { type: String, default: null },
    type: { type: String, required: true },
    source: { type: String, required: true },
    title: { type: String, required: true },
    content: { type: String, default: '' },
    level: { type: String, required: true },
    data: { type: Schema.Types.Mixed, default: null },
    link_url: { type: String, default: null },
    status: { type: String, default: 'active' },
    expires_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: 'notifications', versionKey: false, minimize: false },
);
// The user list and unread count: visible audiences, newest first.
notificationSchema.index({ audience: 1, created_at: -1 });
// The admin list: everything newest first (global admins), or one team's / one user's.
notificationSchema.index({ created_at: -1 });
notificationSchema.index({ team_id: 1, created_at: -1 });
notificationSchema.index({ user_id: 1, created_at: -1 });

const readSchema = new Schema<ReadDoc>(
  {
    _id: { type: String, required: true },
    notification_id: { type: String, required: true },
    user_id: { type: String, required: true },
    audience: { type: String, required: true },
    expires_at: { type: Date, default: null },
    read_at: { type: Date, required: true },
  },
  { collection: 'notification_reads', versionKey: false },
);
// Unread count, unread_only, mark-read: one user's read records.
readSchema.index({ user_id: 1, notification_id: 1 });
// Deleting a notification drops its read records.
readSchema.index({ notification_id: 1 });

const auditSchema = new Schema<DeleteAuditDoc>(
  {
    _id: { type: String, required: true },
    action: { type: String, required: true },
    notification_id: { type: String, required: true },
    actor_user_id: { type: String, required: true },
    actor_username: { type: String, default: '' },
    ip: { type: String, default: '' },
    user_agent: { type: String, default: '' },
    request_id: { type: String, default: '' },
    at: { type: Date, required: true },
    snapshot: { type: Schema.Types.Mixed, required: true },
  },
  { collection: 'notification_audit', versionKey: false, minimize: false },
);
auditSchema.index({ notification_id: 1 });

const eventKeySchema = new Schema<EventKeyDoc>(
  {
    _id: { type: String, required: true },
    notification_id: { type: String, required: true },
    type: { type: String, required: true },
    completed_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
  },
  { collection: 'notification_event_keys', versionKey: false },
);

const autoConfigSchema = new Schema<AutoConfigDoc>(
  {
    _id: { type: String, required: true },
    channels: { type: [String], default: [] },
    enabled_types: { type: [String], default: [] },
    updated_at: { type: Date, required: true },
    updated_by: { type: String, default: '' },
  },
  { collection: 'auto_notification_config', versionKey: false },
);

/** The inbox read model's epoch (domain/inbox-read-model.ts): moved when Redis missed a write. */
export interface InboxEpochDoc {
  _id: string;
  value: string;
}

const inboxEpochSchema = new Schema<InboxEpochDoc>(
  {
    _id: { type: String, required: true },
    value: { type: String, required: true },
  },
  { collection: 'inbox_index_epoch', versionKey: false },
);

export interface NotificationModels {
  notifications: Model<NotificationDoc>;
  reads: Model<ReadDoc>;
  audit: Model<DeleteAuditDoc>;
  eventKeys: Model<EventKeyDoc>;
  autoConfig: Model<AutoConfigDoc>;
  inboxEpoch: Model<InboxEpochDoc>;
}

/** Registers the in-app side's models on the service's connection (indexes: `syncIndexes`). */
export function notificationModels(connection: Connection): NotificationModels {
  return {
    notifications: connection.model<NotificationDoc>('Notification', notificationSchema),
    reads: connection.model<ReadDoc>('NotificationRead', readSchema),
    audit: connection.model<DeleteAuditDoc>('NotificationAudit', auditSchema),
    eventKeys: connection.model<EventKeyDoc>('NotificationEventKey', eventKeySchema),
    autoConfig: connection.model<AutoConfigDoc>('AutoNotificationConfig', autoConfigSchema),
    inboxEpoch: connection.model<InboxEpochDoc>('InboxIndexEpoch', inboxEpochSchema),
  };
}

/** `g`, `t:<team id>` or `u:<user id>`. */
export function audienceOf(scope: string, teamId: string | null, userId: string | null): string {
  if (scope === 'team') return `t:${teamId ?? ''}`;
  if (scope === 'user') return `u:${userId ?? ''}`;
  return 'g';
}

/** Every audience a caller belongs to: global, themselves, their teams. */
export function audiencesOf(userId: string, teamIds: readonly string[]): string[] {
  return ['g', `u:${userId}`, ...teamIds.map((id) => `t:${id}`)];
}

// The delivery side's collections (domain/delivery/): deliveries, their claims, channel tests.

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

const deliverySchema = new Schema<DeliveryDoc>(
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
    error_params: { type: Schema.Types.Mixed, default: null },
    sent_at: { type: Date, default: null },
    message: { type: Schema.Types.Mixed, required: true },
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
deliverySchema.index({ notification_id: 1, created_at: 1 });
// The reconciler's two scans: due pending work, and claims whose lease ran out.
deliverySchema.index({ status: 1, next_attempt_at: 1 });
deliverySchema.index({ status: 1, lease_until: 1 });

/**
 * One row per claimed attempt, `_id` = `<delivery id>:<attempt>`. FerretDB 1.24 runs
 * findAndModify and filtered updates as a read then a write without isolation, so fifty parallel
 * compare-and-sets on one document can all "win" (measured: up to 49 of 50). Its unique `_id`,
 * enforced by PostgreSQL, is atomic: the one insert that succeeds owns the attempt.
 */
export interface ClaimDoc {
  _id: string;
  delivery_id: string;
  token: string;
  created_at: Date;
}

const claimSchema = new Schema<ClaimDoc>(
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

export function claimModel(connection: Connection): Model<ClaimDoc> {
  return (
    (connection.models.DeliveryClaim as Model<ClaimDoc> | undefined) ??
    connection.model('DeliveryClaim', claimSchema, 'delivery_claims')
  );
}

export function deliveryModel(connection: Connection): Model<DeliveryDoc> {
  return (
    (connection.models.Delivery as Model<DeliveryDoc> | undefined) ??
    connection.model('Delivery', deliverySchema, 'deliveries')
  );
}

/** A delivery due for (re)submission and where it came from. */

/**
 * One channel test (collection `channel_test_audit`): who tested which channel towards which host,
 * and how it ended. Never a secret, a URL path or a query (robot URLs carry their tokens there):
 * the destination is an origin or `host:port`, the overrides and dropped secrets are names only.
 */
export interface ChannelTestAuditDoc {
  _id: string;
  action: 'channel.test';
  channel: ChannelName;
  actor_user_id: string;
  actor_username: string;
  ip: string;
  user_agent: string;
  request_id: string;
  /** `smtp-host:port`, or the origin a chat message goes to. */
  destination: string;
  overridden: string[];
  dropped_secrets: string[];
  /** `started` until the test ends (a crash midway leaves it so), then `succeeded` or `failed`. */
  outcome: NameOf<typeof CHANNEL_TEST_OUTCOMES>;
  /** The failure's message key (delivery_* or *_not_configured), null on success. */
  error_key: string | null;
  at: Date;
}

const channelTestAuditSchema = new Schema<ChannelTestAuditDoc>(
  {
    _id: { type: String, required: true },
    action: { type: String, required: true },
    channel: { type: String, required: true },
    actor_user_id: { type: String, required: true },
    actor_username: { type: String, default: '' },
    ip: { type: String, default: '' },
    user_agent: { type: String, default: '' },
    request_id: { type: String, default: '' },
    destination: { type: String, default: '' },
    overridden: { type: [String], default: [] },
    dropped_secrets: { type: [String], default: [] },
    outcome: { type: String, required: true },
    error_key: { type: String, default: null },
    at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
channelTestAuditSchema.index({ at: -1 });

export function channelTestAuditModel(connection: Connection): Model<ChannelTestAuditDoc> {
  return (
    (connection.models.ChannelTestAudit as Model<ChannelTestAuditDoc> | undefined) ??
    connection.model('ChannelTestAudit', channelTestAuditSchema, 'channel_test_audit')
  );
}

/**
 * Version of the collections and indexes this build expects; bumped with every change to the
 * mongoose models, and reported by GetInfo once the database answered.
 */
export const SCHEMA_VERSION = 'notifications-v1';

export async function mongoSchemaVersion(connection: Connection): Promise<string> {
  await connection.db!.admin().ping();
  return SCHEMA_VERSION;
}
