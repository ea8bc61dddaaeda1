import { ensureTopics, NonRetryableError, TaskWorker, type TaskMeta } from '@platform/kafka';
import { sendSmtpMail } from '../adapters/smtp-mailer.js';
import type { IdentityDependencies } from '../deps.js';
import { EMAIL_SEND_TASK, type EmailTaskArgs } from '../domain/verification/email-task.js';
import { isSmtpReady, mailSender, smtpTransportOptions } from '../domain/verification/smtp-settings.js';

type WorkerDeps = Pick<
  IdentityDependencies,
  'kafka' | 'redis' | 'logger' | 'settings' | 'config' | 'secrets'
>;

function parseArgs(args: Partial<EmailTaskArgs>): EmailTaskArgs {
  const { to, subject, text, html, locale } = args;
  if (typeof to !== 'string' || !to || typeof subject !== 'string' || typeof text !== 'string') {
    throw new NonRetryableError('malformed email.send args: to, subject and text are required');
  }
  return { to, subject, text, html: typeof html === 'string' ? html : '', locale: locale ?? 'en' };
}

/**
 * Sends one queued mail over SMTP with the current site settings (read per mail, so a settings
 * change applies to the next one). SMTP switched off meanwhile is final (dead letter); a transport
 * error is retried by the worker and dead-lettered after the retries. Only the task id and the
 * recipient's domain are logged: the body carries a code.
 */
export async function sendQueuedEmail(
  deps: WorkerDeps,
  rawArgs: Partial<EmailTaskArgs>,
  meta: TaskMeta,
): Promise<void> {
  const args = parseArgs(rawArgs);
  const settings = await deps.settings.current();
  if (!isSmtpReady(settings)) throw new NonRetryableError('SMTP is disabled or not configured');
  await sendSmtpMail(smtpTransportOptions(settings), { ...args, from: mailSender(settings) });
  deps.logger.info(
    { task_id: meta.id, attempt: meta.attempt, recipient_domain: args.to.split('@').pop() },
    'email sent',
  );
}

/**
 * The `default` queue's worker in identity (group `<prefix>workers.default`): handles
 * `email.send`. The queue topic is ensured first because producers and consumers never
 * auto-create topics.
 */
export async function startEmailWorker(deps: WorkerDeps): Promise<TaskWorker> {
  const worker = new TaskWorker(deps.kafka, {
    queue: 'default',
    redis: deps.redis,
    logger: deps.logger,
    topicPrefix: deps.config.QUEUE_TOPIC_PREFIX,
    // Mails carry codes and reset links: their args travel sealed with the at-rest key.
    cipher: deps.secrets,
  }).register<Partial<EmailTaskArgs>>(EMAIL_SEND_TASK, (args, meta) => sendQueuedEmail(deps, args, meta));
  await ensureTopics(deps.kafka, [worker.topic], { logger: deps.logger });
  await worker.start();
  return worker;
}
