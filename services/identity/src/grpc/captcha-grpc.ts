import * as captchaV1 from '@platform/contracts/platform/identity/v1/captcha';
import { registration } from '@platform/grpc';
import type { CaptchaStore } from '../data/captcha-store.js';
import { createCaptcha } from '../domain/captcha/create-captcha.js';
import { submitCaptchaClick } from '../domain/captcha/submit-captcha-click.js';
import type { IdentityDependencies } from '../deps.js';

export const CAPTCHA_SERVICE_NAME = 'platform.identity.v1.CaptchaService';

/** Public click-captcha: challenge and click. The proof is consumed by registration/login/recovery. */
export function captchaGrpc(deps: IdentityDependencies, store: CaptchaStore) {
  return registration(CAPTCHA_SERVICE_NAME, captchaV1.CaptchaServiceService, {
    createCaptcha: () => createCaptcha(store),
    submitCaptchaClick: (request) =>
      submitCaptchaClick(store, deps.logger, {
        captchaId: request.captcha_id,
        challenge: request.challenge,
        clickedOption: request.clicked_option,
        elapsedMs: request.elapsed_ms,
        pointer: request.pointer,
        ip: request.ip,
      }),
  });
}
