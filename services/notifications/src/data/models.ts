import { Schema, type Connection, type Model } from 'mongoose';

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
