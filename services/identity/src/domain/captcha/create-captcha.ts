import { randomToken, sha256Hex } from '@platform/crypto';
import { CAPTCHA_TTL_SECONDS, type CaptchaStore } from '../../data/captcha-store.js';
import { drawCaptcha, optionBox } from './captcha-image.js';

export interface CaptchaChallenge {
  captcha_id: string;
  challenge: string;
  prompt: 'captcha_click_prompt';
  expires_in: number;
}

/** GET /captcha: draws a new challenge and remembers only its digest and target. */
export async function createCaptcha(store: CaptchaStore): Promise<CaptchaChallenge> {
  const picture = drawCaptcha();
  const captchaId = randomToken(18);
  // The client parses this JSON text; it must echo it verbatim with the click.
  const challenge = JSON.stringify(picture);
  await store.saveChallenge(captchaId, {
    digest: sha256Hex(challenge),
    target: picture.target_text,
    targetBox: optionBox(picture.options.indexOf(picture.target_text)),
    issuedAt: Date.now(),
  });
  return {
    captcha_id: captchaId,
    challenge,
    prompt: 'captcha_click_prompt',
    expires_in: CAPTCHA_TTL_SECONDS,
  };
}
