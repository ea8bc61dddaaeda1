import { EMAIL_SEND_TASK } from '@platform/contracts';
import { captureEvents, waitUntil, type EventCapture, type IdentityUser } from '@platform/testing';
import { queueTopic } from '@platform/kafka';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotificationsHarness, type NotificationsHarness } from './support/harness.js';

let h: NotificationsHarness;
let capture: EventCapture;
let superuser: IdentityUser;

beforeAll(async () => {
  h = await startNotificationsHarness();
  superuser = await h.createUser({ name: 'root', superuser: true, roles: ['Super Admin'] });
  capture = await captureEvents(h.notifications.dependencies.kafka, 'bulk-email', [
    queueTopic('default', h.topicPrefix),
  ]);
});

afterAll(async () => {
  await capture?.stop();
  await h?.stop();
});

const send = (sender: IdentityUser, json: Record<string, unknown>) =>
  h.request('POST', '/admin/users/send-email', {
    token: sender.token,
    json: { subject: 'Hello', content: 'Body <b>', ...json },
  });

const mailsTo = (address: string) =>
  capture.messages.filter((message) => {
    const value = message.value as { task?: string; args?: { to?: string } };
    return value.task === EMAIL_SEND_TASK && value.args?.to === address;
  });

describe('POST /admin/users/send-email', () => {
  it('queues one email.send task per recipient on the default queue', async () => {
    const sender = await h.createUser({ name: 'sender', roles: ['Admin'] });
    const users = await Promise.all([1, 2].map(() => h.createUser({ name: 'rcpt' })));
    const inactive = await h.createUser({ name: 'inactive', isActive: false });
    const response = await send(sender, { user_ids: [...users.map((user) => user.id), inactive.id] });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ sent_count: 2, skipped_count: 1 });
    for (const user of users) {
      const [mail] = await waitUntil(
        () => (mailsTo(user.email).length > 0 ? mailsTo(user.email) : undefined),
        15_000,
        'no task',
      );
      expect(mail!.value).toMatchObject({
        task: 'email.send',
        args: { to: user.email, subject: 'Hello', text: 'Body <b>', html: '<p>Body &lt;b&gt;</p>' },
      });
    }
    expect(mailsTo(inactive.email)).toHaveLength(0);
  });

  it('at most 5 per recipient per day under a parallel burst; extras skipped and counted', async () => {
    const recipient = await h.createUser({ name: 'capped' });
    const senders = await Promise.all([1, 2].map(() => h.createUser({ name: 'burst', roles: ['Admin'] })));
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => send(senders[index % 2]!, { user_ids: [recipient.id] })),
    );
    expect(answers.every((answer) => answer.body.code === 0)).toBe(true);
    const sent = answers.reduce((sum, answer) => sum + (answer.body.data.sent_count as number), 0);
    const skipped = answers.reduce((sum, answer) => sum + (answer.body.data.skipped_count as number), 0);
    expect([sent, skipped]).toEqual([5, 7]);
    await waitUntil(() => mailsTo(recipient.email).length === 5 || undefined, 15_000, 'tasks missing');
  });

  it('100 e-mails per hour per sender: a parallel burst never exceeds it; the rest is 400 / 5400', async () => {
    const sender = await h.createUser({ name: 'hourly', roles: ['Admin'] });
    const recipients = await Promise.all(Array.from({ length: 30 }, () => h.createUser({ name: 'many' })));
    const ids = recipients.map((user) => user.id);
    // 8 requests of 30 e-mails each: at most 3 fit into 100.
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(sender, { user_ids: ids })));
    const accepted = answers.filter((answer) => answer.body.code === 0);
    const limited = answers.filter((answer) => answer.body.code === 5400);
    expect(accepted.length + limited.length).toBe(8);
    expect(
      accepted.reduce((sum, answer) => sum + (answer.body.data.sent_count as number), 0),
    ).toBeLessThanOrEqual(100);
    expect(accepted.length).toBe(3);
    expect(limited[0]!.status).toBe(400);
    expect(limited[0]!.body.data).toMatchObject({ limit: 100, period: 'hour' });
    // Another sender is not affected.
    const other = await h.createUser({ name: 'other', roles: ['Admin'] });
    expect((await send(other, { user_ids: [ids[0]!] })).body.code).toBe(0);
  });

  it('validates the body (422 / 1001), needs admin:notification:create (3000), unknown users 4001', async () => {
    const plain = await h.createUser({ name: 'plain' });
    expect((await send(plain, { all_users: true })).body.code).toBe(3000);
    for (const json of [
      {},
      { user_ids: [] },
      { user_ids: ['x'] },
      { all_users: false },
      { all_users: true, user_ids: [superuser.id] },
      { user_ids: [superuser.id], subject: '' },
      { user_ids: [superuser.id], subject: 'x'.repeat(256) },
      { user_ids: Array.from({ length: 1001 }, () => randomUUID()) },
    ]) {
      const response = await send(superuser, json);
      expect([response.status, response.body.code], JSON.stringify(json).slice(0, 80)).toEqual([422, 1001]);
    }
    const unknown = await send(superuser, { user_ids: [randomUUID()] });
    expect([unknown.status, unknown.body.code]).toEqual([404, 4001]);
  });
});
