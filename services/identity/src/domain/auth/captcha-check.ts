import { BusinessError, ErrorCode } from '@platform/errors';
import type { CaptchaVerifier } from './captcha-port.js';

/**
 * Authentication rule 8: with `enable_captcha` on, registration, password login and the recovery
 * mails (forgot-password, send-verification for `reset_password`) must carry a captcha proof.
 * Missing id or token → 5302; a proof the verifier rejects (invalid, used, expired, failed trace)
 * → 5303. Without a verifier wired in, no proof can be valid, so 5303.
 */
export async function requireCaptcha(
  verifier: CaptchaVerifier | undefined,
  enabled: boolean,
  captchaId: string | undefined,
  captchaToken: string | undefined,
): Promise<void> {
  if (!enabled) return;
  if (!captchaId || !captchaToken) throw new BusinessError(ErrorCode.CAPTCHA_REQUIRED);
  if (!verifier || !(await verifier.consume(captchaId, captchaToken))) {
    throw new BusinessError(ErrorCode.CAPTCHA_INVALID);
  }
}
