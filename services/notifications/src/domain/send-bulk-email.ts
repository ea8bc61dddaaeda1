import { EMAIL_SEND_TASK, type EmailTaskArgs, type notificationsV1 } from '@platform/contracts';
import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { randomUUID } from 'node:crypto';
import type { UserContact } from './identity-port.js';
import { BULK_EMAIL_LIMITS } from '../data/bulk-email-quota.js';
import type { NotificationsDependencies } from '../deps.js';

type Deps = Pick<NotificationsDependencies, 'directory' | 'queue' | 'now' | 'logger' | 'bulkEmailQuota'>;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

async function recipientsOf(
  deps: Deps,
  request: notificationsV1.SendBulkEmailRequest,
): Promise<UserContact[]> {
  if (request.all_users) {
    const recipients: UserContact[] = [];
    for await (const ids of deps.directory.activeUserIds()) {
      recipients.push(...(await deps.directory.userContacts(ids)).values());
    }
    return recipients;
  }
  const ids = [...new Set(request.user_ids)];
  const known = await deps.directory.userContacts(ids);
  if (ids.some((id) => !known.has(id))) throw new BusinessError(ErrorCode.USER_NOT_FOUND);
  return ids.map((id) => known.get(id)!);
}

/**
 * `POST /admin/users/send-email`: one `email.send` task per recipient on the `default` queue.
 * Quotas (spec Limits): 100 e-mails per hour per sender, all-or-nothing (400 / 5400 with
 * `{limit, period}`); at most 5 bulk e-mails per recipient per calendar day (server time), extras
 * skipped and counted, as are inactive users and users without an address.
 */
export async function sendBulkEmail(
  deps: Deps,
  caller: Principal,
  request: notificationsV1.SendBulkEmailRequest,
): Promise<notificationsV1.BulkEmailResult> {
  if (!request.all_users && request.user_ids.length === 0) {
    throw BusinessError.validation({ user_ids: ['user_ids or all_users is required'] }, { httpStatus: 400 });
  }
  const recipients = await recipientsOf(deps, request);
  const reachable = recipients.filter((user) => user.is_active && user.email);
  let skipped = recipients.length - reachable.length;
  const now = deps.now();
  const token = randomUUID();
  if (!(await deps.bulkEmailQuota.reserveSender(caller.user_id, reachable.length, token, now))) {
    throw new BusinessError(ErrorCode.RATE_LIMITED, {
      data: { limit: BULK_EMAIL_LIMITS.perSenderPerHour, period: 'hour' },
    });
  }
  const taken = await deps.bulkEmailQuota.reserveRecipients(
    reachable.map((user) => user.id),
    now,
  );
  const accepted = reachable.filter((_, index) => taken[index]);
  skipped += reachable.length - accepted.length;
  let queued = 0;
  try {
    for (const user of accepted) {
      const args: EmailTaskArgs = {
        to: user.email,
        subject: request.subject,
        text: request.content,
        html: `<p>${escapeHtml(request.content).replace(/\n/g, '<br>')}</p>`,
        locale: user.locale || 'en',
      };
      await deps.queue.enqueue('default', EMAIL_SEND_TASK, args, { id: randomUUID() });
      queued += 1;
    }
  } finally {
    // The sender's allowance counts only e-mails actually queued.
    await deps.bulkEmailQuota.releaseSender(caller.user_id, token, queued, reachable.length);
  }
  return { sent_count: queued, skipped_count: skipped };
}
