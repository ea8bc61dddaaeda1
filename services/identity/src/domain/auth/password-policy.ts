import { PASSWORD_BOUNDS } from '@platform/contracts';
import { BusinessError, ErrorCode, toLocale, translate, type MsgKey } from '@platform/errors';
import type { SiteSettings } from '../settings/site-settings.js';

/** Hard upper bound whatever the settings say: longer passwords only cost hashing time. */
export const PASSWORD_MAX_LENGTH = PASSWORD_BOUNDS.maxLength;

type PolicySettings = Pick<
  SiteSettings,
  | 'password_min_length'
  | 'password_require_uppercase'
  | 'password_require_lowercase'
  | 'password_require_digit'
  | 'password_require_symbol'
>;

/**
 * Every reason `password` breaks the policy, as message keys with their parameters (empty when it
 * complies). Length counts Unicode code points; letters and digits are ASCII classes, and a
 * "symbol" is any character that is not an ASCII letter or digit (so spaces and non-Latin
 * characters count as symbols).
 */
export function passwordPolicyViolations(
  password: string,
  policy: PolicySettings,
): { key: MsgKey; params?: Record<string, number> }[] {
  const reasons: { key: MsgKey; params?: Record<string, number> }[] = [];
  const length = [...password].length;
  if (length < policy.password_min_length) {
    reasons.push({ key: 'password_too_short', params: { min_length: policy.password_min_length } });
  }
  if (length > PASSWORD_MAX_LENGTH) {
    reasons.push({ key: 'password_too_long', params: { max_length: PASSWORD_MAX_LENGTH } });
  }
  if (policy.password_require_uppercase && !/[A-Z]/.test(password)) {
    reasons.push({ key: 'password_requires_uppercase' });
  }
  if (policy.password_require_lowercase && !/[a-z]/.test(password)) {
    reasons.push({ key: 'password_requires_lowercase' });
  }
  if (policy.password_require_digit && !/[0-9]/.test(password)) {
    reasons.push({ key: 'password_requires_digit' });
  }
  if (policy.password_require_symbol && !/[^A-Za-z0-9]/.test(password)) {
    reasons.push({ key: 'password_requires_special' });
  }
  return reasons;
}

/**
 * Throws 1001 (HTTP 400: raised by the service) with `data.errors[field]` listing every reason in
 * the request's locale.
 */
export function assertPasswordPolicy(
  password: string,
  policy: PolicySettings,
  field: string,
  locale: string,
): void {
  const reasons = passwordPolicyViolations(password, policy);
  if (reasons.length === 0) return;
  const language = toLocale(locale) ?? 'en';
  throw new BusinessError(ErrorCode.VALIDATION_ERROR, {
    httpStatus: 400,
    data: { errors: { [field]: reasons.map((r) => translate(r.key, language, r.params)) } },
  });
}
