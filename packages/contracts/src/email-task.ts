/**
 * `email.send` on the `default` work queue: enqueued by identity (verification and reset mails,
 * sealed through its outbox) and notifications (bulk e-mail, e-mail deliveries); handled by the one
 * `default` worker fleet, the notifications service.
 */
export const EMAIL_SEND_TASK = 'email.send';

/** Args of `email.send`: a complete, already localized message. */
export interface EmailTaskArgs {
  to: string;
  subject: string;
  text: string;
  html: string;
  locale: string;
}
