import { BusinessError, ErrorCode, translate, type Locale, type MsgKey } from '@platform/errors';
import type { Request, Response } from 'express';
import {
  asBusinessError,
  failureMessage,
  localeOf,
  originOf,
  sendOutcome,
  singleValue,
  type PageDeps,
} from './page-context.js';
import { pageText } from './page-texts.js';
import { escapeHtml, jsonBlock, renderPage, sendPage } from './render.js';

/** The gateway's bound on a link token (identity-verification-routes.ts `linkToken`). */
const TOKEN_MAX_LENGTH = 512;

export interface PasswordPolicy {
  min_length: number;
  max_length: number;
  require_uppercase: boolean;
  require_lowercase: boolean;
  require_digit: boolean;
  require_symbol: boolean;
}

/** The site's current password rules, read from identity (the rules the reset itself applies). */
async function currentPolicy(deps: PageDeps): Promise<PasswordPolicy> {
  const policy = await deps.clients.settings.call('getPasswordPolicy', {});
  return {
    min_length: policy.min_length,
    max_length: policy.max_length,
    require_uppercase: policy.require_uppercase,
    require_lowercase: policy.require_lowercase,
    require_digit: policy.require_digit,
    require_symbol: policy.require_symbol,
  };
}

/** The rules as catalog texts: the same keys identity uses for the 1001 reasons, in one order. */
function policyRules(policy: PasswordPolicy, locale: Locale): { key: MsgKey; text: string }[] {
  const rules: { key: MsgKey; params?: Record<string, number> }[] = [
    { key: 'password_too_short', params: { min_length: policy.min_length } },
    { key: 'password_too_long', params: { max_length: policy.max_length } },
  ];
  if (policy.require_uppercase) rules.push({ key: 'password_requires_uppercase' });
  if (policy.require_lowercase) rules.push({ key: 'password_requires_lowercase' });
  if (policy.require_digit) rules.push({ key: 'password_requires_digit' });
  if (policy.require_symbol) rules.push({ key: 'password_requires_special' });
  return rules.map((rule) => ({ key: rule.key, text: translate(rule.key, locale, rule.params) }));
}

interface FormState {
  token: string;
  email: string;
  policy: PasswordPolicy;
  errors?: { new_password?: string[]; confirm_password?: string[] };
}

function fieldErrors(id: string, messages: string[] = []): string {
  const items = messages.map((m) => `<li>${escapeHtml(m)}</li>`).join('');
  return `<ul class="field-errors" id="${id}-errors">${items}</ul>`;
}

function resetForm(locale: Locale, state: FormState): string {
  const t = (key: Parameters<typeof pageText>[1], params?: Record<string, string>) =>
    escapeHtml(pageText(locale, key, params));
  const rules = policyRules(state.policy, locale);
  const invalid = (field: 'new_password' | 'confirm_password') =>
    state.errors?.[field]?.length ? ' aria-invalid="true"' : '';
  return `<p class="lead">${t('resetFor', { email: state.email })}</p>
<form method="post" action="/reset-password" id="reset-form" novalidate>
<input type="hidden" name="token" value="${escapeHtml(state.token)}">
<input type="email" name="username" autocomplete="username" value="${escapeHtml(state.email)}" hidden readonly>
<label for="new_password">${t('newPassword')}</label>
<input id="new_password" name="new_password" type="password" autocomplete="new-password" required${invalid('new_password')} aria-describedby="policy new_password-errors">
${fieldErrors('new_password', state.errors?.new_password)}
<label for="confirm_password">${t('confirmPassword')}</label>
<input id="confirm_password" name="confirm_password" type="password" autocomplete="new-password" required${invalid('confirm_password')} aria-describedby="confirm_password-errors">
${fieldErrors('confirm_password', state.errors?.confirm_password)}
<label class="check" id="show-password-label" hidden><input type="checkbox" id="show-password"> ${t('showPassword')}</label>
<div id="policy" class="policy">
<p>${t('policyTitle')}</p>
<ul>${rules.map((r) => `<li data-rule="${r.key}">${escapeHtml(r.text)}</li>`).join('')}</ul>
</div>
<button type="submit">${t('submitReset')}</button>
</form>
<div id="result" aria-live="polite"></div>
<noscript><p class="hint">${t('noScriptReset')}</p></noscript>
${jsonBlock('page-data', {
  policy: state.policy,
  messages: {
    ...Object.fromEntries(rules.map((r) => [r.key, r.text])),
    passwords_differ: pageText(locale, 'passwordsDiffer'),
    reset_done: pageText(locale, 'resetDone'),
    reset_again: pageText(locale, 'resetAgain'),
    internal_error: failureMessage(new BusinessError(ErrorCode.INTERNAL_ERROR), locale),
  },
})}`;
}

function sendForm(deps: PageDeps, res: Response, status: number, state: FormState): void {
  const locale = localeOf(res);
  const html = renderPage(deps.assets, {
    locale,
    title: pageText(locale, 'resetTitle'),
    body: resetForm(locale, state),
    scripts: ['reset-password.js'],
  });
  sendPage(res, status, locale, html);
}

function sendFailure(deps: PageDeps, res: Response, error: BusinessError): void {
  const locale = localeOf(res);
  sendOutcome(deps, res, {
    status: error.httpStatus,
    title: pageText(locale, 'resetTitle'),
    kind: 'error',
    text: failureMessage(error, locale),
    detail: pageText(locale, 'resetAgain'),
  });
}

function linkToken(value: unknown): string {
  const token = singleValue(value);
  if (!token || token.length > TOKEN_MAX_LENGTH) throw new BusinessError(ErrorCode.VERIFICATION_CODE_INVALID);
  return token;
}

/**
 * `GET /reset-password?token=`: checks the link first (a reset token is only checked, not used,
 * by `VerifyLink`), so an expired or used link says so before anyone types a password.
 */
export function showResetForm(deps: PageDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    try {
      const token = linkToken(req.query.token);
      const checked = await deps.clients.verification.call('verifyLink', { token, origin: originOf(req) });
      sendForm(deps, res, 200, { token, email: checked.email, policy: await currentPolicy(deps) });
    } catch (error) {
      sendFailure(deps, res, asBusinessError(deps, req, error));
    }
  };
}

/**
 * `POST /reset-password` (form-encoded): the form without JavaScript. Calls the same use case as
 * `POST /api/v1/reset-password` and answers with a page: success, the form again with the 1001
 * field reasons, or the failure (5005 for an expired, used or unknown link).
 */
export function submitResetForm(deps: PageDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const locale = localeOf(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    try {
      const token = linkToken(body.token);
      const password = typeof body.new_password === 'string' ? body.new_password : '';
      const confirm = typeof body.confirm_password === 'string' ? body.confirm_password : '';
      if (password !== confirm) {
        const checked = await deps.clients.verification.call('verifyLink', { token, origin: originOf(req) });
        sendForm(deps, res, 400, {
          token,
          email: checked.email,
          policy: await currentPolicy(deps),
          errors: { confirm_password: [pageText(locale, 'passwordsDiffer')] },
        });
        return;
      }
      try {
        await deps.clients.verification.call('resetPassword', {
          link_token: token,
          new_password: password,
          origin: originOf(req),
        });
        sendOutcome(deps, res, {
          status: 200,
          title: pageText(locale, 'resetTitle'),
          kind: 'ok',
          text: translate('password_reset_success', locale),
          detail: pageText(locale, 'resetDone'),
        });
      } catch (error) {
        const reasons = policyReasons(error);
        if (!reasons) throw error;
        const checked = await deps.clients.verification.call('verifyLink', { token, origin: originOf(req) });
        sendForm(deps, res, 400, {
          token,
          email: checked.email,
          policy: await currentPolicy(deps),
          errors: { new_password: reasons },
        });
      }
    } catch (error) {
      sendFailure(deps, res, asBusinessError(deps, req, error));
    }
  };
}

/** The 1001 reasons for `new_password`, already in the request's language (identity wrote them). */
function policyReasons(error: unknown): string[] | undefined {
  if (!(error instanceof BusinessError) || error.code !== ErrorCode.VALIDATION_ERROR) return undefined;
  const errors = (error.data?.errors ?? {}) as Record<string, unknown>;
  const reasons = errors.new_password;
  return Array.isArray(reasons) ? reasons.map(String) : undefined;
}
