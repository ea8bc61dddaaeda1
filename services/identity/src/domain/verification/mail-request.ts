import type { VerificationPurpose } from '../../data/verification-repository.js';
import type { IdentityDependencies } from '../../deps.js';
import type { CaptchaVerifier } from '../auth/captcha-port.js';
import { MAIL_COOLDOWN_SECONDS } from './email-cooldown.js';

export type VerificationDeps = Pick<
  IdentityDependencies,
  'pool' | 'redis' | 'secrets' | 'taskSeal' | 'config' | 'settings' | 'logger' | 'passwords'
> & { captcha?: CaptchaVerifier };

/** What the send, resend and forgot-password routes answer: the mail is queued (or silently skipped). */
export interface MailRequested {
  email: string;
  purpose: VerificationPurpose;
  cooldown_seconds: number;
}

export function mailRequested(email: string, purpose: VerificationPurpose): MailRequested {
  return { email, purpose, cooldown_seconds: MAIL_COOLDOWN_SECONDS };
}
