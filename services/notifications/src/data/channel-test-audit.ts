import { randomUUID } from 'node:crypto';
import type { Connection, Model } from 'mongoose';
import { channelTestAuditModel, type ChannelTestAuditDoc } from './models.js';

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
