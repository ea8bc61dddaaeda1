import { EMAIL_SEND_TASK, type EmailTaskArgs } from '@platform/contracts';
import { NonRetryableError, type TaskMeta } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { SendFailure, type ChannelSenders, type SettingsSource } from './delivery-ports.js';
import { channelProblem, channelSettingsFrom } from './channel-settings.js';

export { EMAIL_SEND_TASK };

function parseArgs(args: Partial<EmailTaskArgs>): EmailTaskArgs {
  const { to, subject, text, html, locale } = args;
  if (typeof to !== 'string' || !to || typeof subject !== 'string' || typeof text !== 'string') {
    throw new NonRetryableError('malformed email.send args: to, subject and text are required');
  }
  return { to, subject, text, html: typeof html === 'string' ? html : '', locale: locale ?? 'en' };
}

/**
 * Sends one queued mail with the current SMTP settings. SMTP switched off or incomplete, and a
 * permanent refusal, are final (dead letter); a transient failure is retried by the worker, then
 * dead-lettered. Only the task id and the recipient's domain are logged: the body carries a code.
 */
export async function sendQueuedEmail(
  deps: { settings: SettingsSource; senders: ChannelSenders; logger: Logger },
  rawArgs: Partial<EmailTaskArgs>,
  meta: TaskMeta,
): Promise<void> {
  const args = parseArgs(rawArgs);
  const settings = channelSettingsFrom(await deps.settings.get());
  const problem = channelProblem('email', settings);
  if (problem) throw new NonRetryableError(`SMTP is not usable: ${problem}`);
  try {
    await deps.senders.mail(settings, args);
  } catch (err) {
    if (err instanceof SendFailure && !err.transient) throw new NonRetryableError(err.message);
    throw err;
  }
  deps.logger.info(
    { task_id: meta.id, attempt: meta.attempt, recipient_domain: args.to.split('@').pop() },
    'email sent',
  );
}
