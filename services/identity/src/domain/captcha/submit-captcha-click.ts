import { constantTimeEqual, randomToken, sha256Hex } from '@platform/crypto';
import { BusinessError, ErrorCode } from '@platform/errors';
import type { Logger } from '@platform/logger';
import type { CaptchaStore } from '../../data/captcha-store.js';
import { optionBox } from './captcha-image.js';
import { scriptedTraceReason, type PointerSample } from './pointer-trace.js';

/** Challenges stored before target boxes were kept (at most 300 s old at deploy time). */
const WHOLE_IMAGE = { ...optionBox(0), x1: optionBox(3).x1 };

export interface CaptchaClick {
  captchaId: string;
  challenge: string;
  clickedOption: string;
  elapsedMs: number;
  pointer: PointerSample[];
  ip: string;
}

export interface CaptchaProof {
  captcha_id: string;
  captcha_token: string;
}

/**
 * POST /captcha/click: the challenge is taken (single use) before anything is checked, so a
 * wrong guess cannot be retried against the same challenge. Every failure is the same 5303; the
 * reason goes to the log only, so a script learns nothing about which check it failed.
 */
export async function submitCaptchaClick(
  store: CaptchaStore,
  logger: Logger,
  click: CaptchaClick,
): Promise<CaptchaProof> {
  const stored = await store.takeChallenge(click.captchaId);
  const reason = !stored
    ? 'unknown_or_expired'
    : !constantTimeEqual(stored.digest, sha256Hex(click.challenge))
      ? 'challenge_mismatch'
      : !constantTimeEqual(stored.target, click.clickedOption)
        ? 'wrong_option'
        : scriptedTraceReason(
            click.elapsedMs,
            click.pointer,
            Date.now() - stored.issuedAt,
            stored.targetBox ?? WHOLE_IMAGE,
          );
  if (reason) {
    logger.info({ captcha_reason: reason, ip: click.ip }, 'captcha click refused');
    throw new BusinessError(ErrorCode.CAPTCHA_INVALID);
  }
  const token = randomToken(32);
  await store.saveProof(click.captchaId, token);
  return { captcha_id: click.captchaId, captcha_token: token };
}
