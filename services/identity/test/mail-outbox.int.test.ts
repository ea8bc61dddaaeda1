import { dropDatabase, ensureDatabase, withDatabase } from '@platform/db';
import { createKafka, ensureTopics, runConsumer, queueTopic, type ConsumerHandle } from '@platform/kafka';
import { SecretBox, TASK_ARGS_PURPOSE } from '@platform/crypto';
import { createLogger } from '@platform/logger';
import { stackEnv, uniqueName } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityHarness, type IdentityHarness } from './support/harness.js';
import { startSmtpSink, type SmtpSink } from '@platform/testing';
import { waitUntil } from './support/suite.js';
import { extractSecrets, insertUser, useSmtpSink } from './support/verification-fixtures.js';

/**
 * Issue 7 "nothing lost when Kafka is down" and "mail bodies travel sealed": an identity whose
 * Kafka is unreachable (a dead local port, so the shared broker keeps running for everyone else)
 * still starts, answers `POST /forgot-password` at once and keeps the cooldown; a second identity
 * on the same database with the real broker relays the mail, whose Kafka message carries neither
 * the code nor the link token.
 */
const logger = createLogger('mail-outbox-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const database = uniqueName('identity_mail').replace(/-/g, '_');
const databaseUrl = withDatabase(stackEnv.postgresAdminUrl, database);
const prefix = `${uniqueName('t')}.`;
const kafka = createKafka({ brokers: stackEnv.kafkaBrokers, clientId: 'mail-outbox-test', logger });
const rawMessages: string[] = [];
let sink: SmtpSink;
let down: IdentityHarness | undefined;
let up: IdentityHarness | undefined;
let capture: ConsumerHandle | undefined;

beforeAll(async () => {
  sink = await startSmtpSink();
  await ensureDatabase(stackEnv.postgresAdminUrl, database);
  const topic = queueTopic('default', prefix);
  await ensureTopics(kafka, [topic]);
  // A raw reader of the queue: exactly the bytes Kafka holds, before any worker opens them.
  capture = await runConsumer(kafka, {
    groupId: `test.raw-mail.${prefix}`,
    topics: [topic],
    decodeJson: false,
    handler: (message) => {
      rawMessages.push(String(message.value));
    },
  });
}, 60_000);

afterAll(async () => {
  await down?.stop().catch(() => undefined);
  await up?.stop();
  await capture?.stop();
  await kafka.disconnect();
  await sink?.close();
  await dropDatabase(stackEnv.postgresAdminUrl, database);
}, 120_000);

describe('mail through the outbox while Kafka is down', () => {
  it('answers forgot-password at once with Kafka unreachable, keeps the cooldown, and mails once Kafka is back', async () => {
    // Start-up itself must not wait on Kafka.
    down = await startIdentityHarness({
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: '127.0.0.1:1',
      QUEUE_TOPIC_PREFIX: prefix,
    });
    // No mail worker for this replica: nothing reaches the queue while Kafka is unreachable.
    await useSmtpSink(down, sink, false);
    const user = await insertUser(down, { verified: true });

    const sent = await down.request('POST', '/forgot-password', { json: { email: user.email } });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ code: 0, data: { purpose: 'reset_password', cooldown_seconds: 60 } });
    // The answered request claimed the cooldown: the mail is queued, not lost.
    const again = await down.request('POST', '/forgot-password', { json: { email: user.email } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe(5008);

    const pool = down.identity.dependencies.pool;
    const { rows } = await pool.query<{ topic: string; type: string; value: any }>(
      'SELECT topic, type, value FROM outbox',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ topic: `${prefix}queue.default`, type: 'email.send' });
    expect(rows[0]!.value.args).toEqual({});
    expect(rows[0]!.value.sealed_args).toEqual(expect.any(String));
    expect(JSON.stringify(rows[0]!.value)).not.toContain(user.email);
    // Sealed with TASK_SEAL_KEY, which the worker fleet holds; SECRET_KEY (the JWT key, which the
    // fleet does not hold) does not open it.
    const sealed = rows[0]!.value.sealed_args as string;
    expect(JSON.parse(new SecretBox(stackEnv.taskSealKey, TASK_ARGS_PURPOSE).decrypt(sealed))).toMatchObject({
      to: user.email,
    });
    expect(() => new SecretBox(stackEnv.secretKey).decrypt(sealed)).toThrow();
    const tokens = await pool.query('SELECT 1 FROM verification_tokens WHERE email = $1', [user.email]);
    expect(tokens.rowCount).toBe(1);
    expect(sink.mails.filter((m) => m.to.includes(user.email))).toHaveLength(0);

    await down.stop();
    down = undefined;

    // Kafka "is back": a replica with the real broker on the same database relays and sends.
    up = await startIdentityHarness({ DATABASE_URL: databaseUrl, QUEUE_TOPIC_PREFIX: prefix });
    // The mail worker is the notifications service (the default queue's one worker fleet).
    await up.startMailWorker();
    const mail = await sink.waitForMail(user.email, { timeoutMs: 60_000 });
    const { code, token } = extractSecrets(mail);
    expect(mail.subject).toContain('reset your password');

    // The code in the mail is the one committed with it.
    const reset = await up.request('POST', '/reset-password', {
      json: { email: user.email, code, new_password: 'After-outage-pass-1' },
    });
    expect(reset.status).toBe(200);

    // What travelled through Kafka: sealed args only.
    const raw = await waitUntil(
      () => rawMessages.find((value) => value.includes('email.send')),
      15_000,
      'the mail task never reached the queue topic',
    );
    expect(raw).toContain('sealed_args');
    expect(raw).not.toContain(code);
    expect(raw).not.toContain(token);
    expect(raw).not.toContain(encodeURIComponent(token));
    expect(raw).not.toContain(user.email);
    expect(JSON.parse(raw).args).toEqual({});
    const left = await up.identity.dependencies.pool.query("SELECT 1 FROM outbox WHERE type = 'email.send'");
    expect(left.rowCount).toBe(0);
  }, 180_000);
});
