/**
 * The captcha check other use cases (registration, login, recovery) depend on. The captcha area
 * implements it; `consume` is single-use: a proof verifies at most once.
 */
export interface CaptchaVerifier {
  /** True when `token` is a valid, unexpired, unused proof for `captchaId`; consumes it either way. */
  consume(captchaId: string, token: string): Promise<boolean>;
}
