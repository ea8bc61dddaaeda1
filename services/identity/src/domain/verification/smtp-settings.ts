import { isSmtpReady, type SmtpSettings } from '@platform/contracts';
import { BusinessError, ErrorCode } from '@platform/errors';

/** Rule 7: SMTP disabled or not configured (the shared rule, @platform/contracts) → 400 / 5007. */
export function assertSmtpReady(settings: SmtpSettings): void {
  if (!isSmtpReady(settings)) throw new BusinessError(ErrorCode.EMAIL_SEND_FAILED);
}
