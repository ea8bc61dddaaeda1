import { ErrorCode, getCatalogEntry, translate, type Locale } from '@platform/errors';
import type { Request, Response } from 'express';
import { localeOf, type PageDeps } from './page-context.js';
import { pageText, type PageTextKey } from './page-texts.js';
import { escapeHtml, jsonBlock, renderPage, sendPage } from './render.js';

/**
 * The failures an SSO callback can end with (docs/identity.md, "Callback"), by msg key. The page
 * shows only these catalog texts: a fragment cannot make it display text of its choosing.
 */
const FAILURE_KEYS: readonly string[] = [
  ...[
    ErrorCode.BAD_REQUEST,
    ErrorCode.INTERNAL_ERROR,
    ErrorCode.INACTIVE_USER,
    ErrorCode.EMAIL_NOT_VERIFIED,
    ErrorCode.SSO_PROVIDER_NOT_FOUND,
    ErrorCode.SSO_SESSION_EXPIRED,
    ErrorCode.SSO_REGISTRATION_DISABLED,
    ErrorCode.SSO_AUTHENTICATION_FAILED,
    ErrorCode.SSO_INVALID_CONFIGURATION,
  ].map((code) => getCatalogEntry(code)!.msgKey),
  'sso_state_invalid',
  'sso_authentication_failed',
  'sso_email_missing',
  'sso_email_not_verified',
  'account_pending_approval',
];

const SCRIPT_TEXTS: readonly PageTextKey[] = [
  'ssoSignedIn',
  'ssoHandedToApp',
  'ssoReturning',
  'ssoCloseWindow',
  'ssoNeedsTotp',
  'ssoNeedsTotpSetup',
  'ssoNoResult',
  'ssoFailed',
];

function pageData(locale: Locale) {
  return {
    texts: Object.fromEntries(SCRIPT_TEXTS.map((key) => [key, pageText(locale, key)])),
    failures: Object.fromEntries(FAILURE_KEYS.map((key) => [key, translate(key, locale)])),
  };
}

/**
 * `GET /sso/complete`: the end of an SSO sign-in. The result travels in the fragment, which no
 * server sees; the page's script reads it, removes it from the address bar and history, shows the
 * outcome and hands it to the app (docs/account-pages.md): `postMessage` to `window.opener` at the
 * configured origin (default: this origin), else a redirect to the configured return URL with the
 * same fragment. Without script the page can only say that it needs script.
 */
export function ssoCompletePage(deps: PageDeps) {
  return (_req: Request, res: Response): void => {
    const locale = localeOf(res);
    const body = `<p class="outcome pending" id="sso-status" role="status">${escapeHtml(pageText(locale, 'ssoWorking'))}</p>
<p class="detail" id="sso-detail"></p>
<noscript><p class="outcome error">${escapeHtml(pageText(locale, 'noScript'))}</p></noscript>
${jsonBlock('page-data', pageData(locale))}`;
    const data: Record<string, string> = {};
    if (deps.sso.openerOrigin) data['opener-origin'] = deps.sso.openerOrigin;
    if (deps.sso.returnUrl) data['return-url'] = deps.sso.returnUrl;
    const html = renderPage(deps.assets, {
      locale,
      title: pageText(locale, 'ssoTitle'),
      body,
      scripts: ['sso-complete.js'],
      data,
    });
    sendPage(res, 200, locale, html);
  };
}
