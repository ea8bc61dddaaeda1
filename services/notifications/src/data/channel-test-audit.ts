import { randomUUID } from 'node:crypto';
import { urlOrigin } from '@platform/outbound-http';
import mongoose, { type Connection, type Model } from 'mongoose';
import type { ChannelName } from '../domain/delivery-port.js';
import type { ChannelSettings } from '../domain/delivery/channel-settings.js';
import { isAppMode, type ChatChannel } from '../domain/delivery/chat-senders.js';

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
  outcome: 'started' | 'succeeded' | 'failed';
  /** The failure's message key (delivery_* or *_not_configured), null on success. */
  error_key: string | null;
  at: Date;
}

const schema = new mongoose.Schema<ChannelTestAuditDoc>(
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
schema.index({ at: -1 });

export function channelTestAuditModel(connection: Connection): Model<ChannelTestAuditDoc> {
  return (
    (connection.models.ChannelTestAudit as Model<ChannelTestAuditDoc> | undefined) ??
    connection.model('ChannelTestAudit', schema, 'channel_test_audit')
  );
}

export type NewChannelTestAudit = Omit<ChannelTestAuditDoc, '_id' | 'action' | 'outcome' | 'error_key'>;

export class ChannelTestAudit {
  private readonly model: Model<ChannelTestAuditDoc>;

  constructor(connection: Connection) {
    this.model = channelTestAuditModel(connection);
  }

  /** Written before anything is sent: a test that cannot be audited is not run. */
  async started(entry: NewChannelTestAudit): Promise<string> {
    const id = randomUUID();
    await this.model.create({
      ...entry,
      _id: id,
      action: 'channel.test',
      outcome: 'started',
      error_key: null,
    });
    return id;
  }

  /** Newest first; `skip` is bounded by the caller's page window. */
  async page(skip: number, limit: number): Promise<{ items: ChannelTestAuditDoc[]; total: number }> {
    const [items, total] = await Promise.all([
      this.model.find({}).sort({ at: -1, _id: -1 }).skip(skip).limit(limit).lean<ChannelTestAuditDoc[]>(),
      this.model.countDocuments({}),
    ]);
    return { items, total };
  }

  async finished(id: string, errorKey: string | null): Promise<void> {
    await this.model.updateOne(
      { _id: id },
      { $set: { outcome: errorKey === null ? 'succeeded' : 'failed', error_key: errorKey } },
    );
  }
}

const originOf = (url: string) => urlOrigin(url) ?? '';

/** Where a test of `channel` with these settings sends to, without path, query or credentials. */
export function testDestination(
  channel: ChannelName,
  s: ChannelSettings,
  appBaseUrls: Record<'dingtalk' | 'wechat' | 'feishu', string>,
): string {
  if (channel === 'email') return `${s.smtp_host.trim()}:${s.smtp_port}`;
  if (isAppMode(channel as ChatChannel, s)) return originOf(appBaseUrls[channel as keyof typeof appBaseUrls]);
  const urls: Record<Exclude<ChannelName, 'email'>, string> = {
    dingtalk: s.dingtalk_webhook_url,
    wechat: s.wechat_webhook_url,
    feishu: s.feishu_webhook_url,
    slack: s.slack_webhook_url,
    webhook: s.webhook_url,
  };
  return originOf(urls[channel]);
}
