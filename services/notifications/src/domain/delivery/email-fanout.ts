import { SendFailure } from './delivery-ports.js';
import type { ChannelSettings } from './channel-settings.js';
import type { DeliveryDoc } from '../../data/models.js';
import type { ClaimWrites, DeliveryDeps } from './delivery-deps.js';
import { recipientPage } from './recipients.js';

export type FanoutResult = { done: false } | { done: true; sent: number; failed: number };

/** The mail of one notification: title as subject, content and link as the text. */
export function notificationMail(message: DeliveryDoc['message'], to: string) {
  const link = message.link_url ? `\n\n${message.link_url}` : '';
  return { to, subject: message.title, text: `${message.content}${link}` };
}

/**
 * Sends one batch (page) of an e-mail delivery under the caller's claim, recording progress after
 * every mail, so a retry or a new worker resumes after the last mail that went out (at most the
 * one mail in flight at a crash goes twice). A recipient the server refuses for good (5xx) is
 * counted and skipped; a transient failure stops the batch for a retry. `done: false` means more
 * batches follow: the caller re-queues the delivery.
 */
export async function sendEmailBatch(
  deps: DeliveryDeps,
  doc: DeliveryDoc,
  writes: ClaimWrites,
  settings: ChannelSettings,
): Promise<FanoutResult> {
  const cursor = doc.email_cursor ?? '';
  const page = await recipientPage(deps.directory, doc.message, cursor, deps.emailBatchSize);
  let sent = doc.email_sent;
  let failed = doc.email_failed;
  for (let index = doc.email_offset; index < page.contacts.length; index += 1) {
    const contact = page.contacts[index]!;
    try {
      await deps.senders.mail(settings, {
        ...notificationMail(doc.message, contact.email),
        locale: contact.locale,
      });
      sent += 1;
    } catch (err) {
      if (!(err instanceof SendFailure) || err.transient) throw err;
      failed += 1;
      deps.logger.warn(
        { delivery_id: doc._id, recipient_domain: contact.email.split('@').pop(), err: err.message },
        'mail refused',
      );
    }
    await writes.saveEmailProgress({
      email_cursor: cursor,
      email_offset: index + 1,
      email_sent: sent,
      email_failed: failed,
    });
  }
  if (page.next) {
    await writes.saveEmailProgress({
      email_cursor: page.next,
      email_offset: 0,
      email_sent: sent,
      email_failed: failed,
    });
    return { done: false };
  }
  return { done: true, sent, failed };
}
