import { BusinessError, ErrorCode } from '@platform/errors';
import type { CaptchaVerifier } from '../auth/captcha-port.js';

/**
 * With `enable_captcha` on, recovery mails (forgot-password, send-verification for
 * `reset_password`) need a captcha proof: missing → 5302, invalid or used → 5303.
 */
export async function requireRecoveryCaptcha(
  captcha: CaptchaVerifier | undefined,
  enabled: boolean,
  captchaId: string,
  captchaToken: string,
): Promise<void> {
  if (!enabled) return;
  if (!captchaId || !captchaToken) throw new BusinessError(ErrorCode.CAPTCHA_REQUIRED);
  // Without a verifier (captcha area not wired) no proof can be checked: invalid.
  if (!captcha || !(await captcha.consume(captchaId, captchaToken)))
    throw new BusinessError(ErrorCode.CAPTCHA_INVALID);
}
