import type { Logger } from '@platform/logger';
import type { AppTokens, ChannelSenders, HttpTarget, SettingsSource } from './delivery-ports.js';
import type { RecipientDirectory } from '../identity-port.js';
import type { ChannelTestAudit } from '../../data/channel-test-audit.js';
import type { DeliveriesRepository } from '../../data/deliveries-repository.js';
import type { DeliveryDoc } from '../../data/models.js';
import type { DestinationRateLimiter } from '../../data/rate-limiter.js';
import type { SubmissionMarks } from './submit.js';

/** What the delivery use cases need; built once by createDeliveryPort / startDeliveryWorkers. */
export interface DeliveryDeps {
  repo: DeliveriesRepository;
  /** Which deliveries sit on the queue (Redis). */
  marks: SubmissionMarks;
  settings: SettingsSource;
  directory: RecipientDirectory;
  limiter: DestinationRateLimiter;
  /** One record per channel test (collection `channel_test_audit`). */
  testAudit: ChannelTestAudit;
  appTokens: AppTokens;
  http: HttpTarget;
  /** Vendor API roots for app modes (production defaults; tests point them at local fakes). */
  appBaseUrls: { dingtalk: string; wechat: string; feishu: string };
  /** Every channel's sender (adapters/channels/channel-senders.ts). */
  senders: ChannelSenders;
  logger: Logger;
  /** How long a claim holds without a heartbeat (a dead worker's delivery is handed on after it). */
  leaseMs: number;
  /** Waits for a rate-limit slot up to this long in place; longer waits go back to `pending`. */
  inlineWaitMs: number;
  /** Recipients per e-mail batch (one queue task each). */
  emailBatchSize: number;
  /** Puts one delivery on the queue (the reconciler's submit). */
  submit(id: string): Promise<void>;
  now(): number;
  random(): number;
}

/** The writes a claim's holder makes while sending (serialized by deliverOnce). */
export interface ClaimWrites {
  saveEmailProgress(
    progress: Pick<DeliveryDoc, 'email_cursor' | 'email_offset' | 'email_sent' | 'email_failed'>,
  ): Promise<unknown>;
}
