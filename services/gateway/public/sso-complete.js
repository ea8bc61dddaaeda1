// The end of an SSO sign-in (services/gateway/src/pages/sso-complete-page.ts). The result is in the
// fragment, which no server ever receives: read it, wipe it from the address bar and history, show
// the outcome, and hand it to the app (docs/account-pages.md): postMessage to window.opener at the
// configured origin, else a redirect to the configured return URL with the same fragment.
(() => {
  'use strict';
  const { texts, failures } = JSON.parse(document.getElementById('page-data').textContent);
  const status = document.getElementById('sso-status');
  const detail = document.getElementById('sso-detail');
  const fragment = window.location.hash.replace(/^#/, '');
  const params = new URLSearchParams(fragment);
  if (window.history.replaceState) {
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }

  function show(kind, text, more) {
    status.className = `outcome ${kind}`;
    status.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    status.textContent = text;
    detail.textContent = more || '';
  }

  // Only catalog texts the page was rendered with: a crafted fragment cannot put words on it.
  const error = params.get('error');
  if (error !== null) {
    show('error', texts.ssoFailed, failures[error] || failures.internal_error || '');
    return;
  }

  let result;
  let headline = texts.ssoSignedIn;
  if (params.get('access_token')) {
    result = { access_token: params.get('access_token'), token_type: params.get('token_type') || 'bearer' };
    if (params.get('force_password_change') === 'true') {
      result.force_password_change = true;
      result.reason = params.get('reason') || '';
    }
  } else if (params.get('temp_token')) {
    const setup = params.get('requires_totp_setup') === 'true';
    result = { temp_token: params.get('temp_token') };
    result[setup ? 'requires_totp_setup' : 'requires_totp'] = true;
    headline = setup ? texts.ssoNeedsTotpSetup : texts.ssoNeedsTotp;
  } else {
    show('error', texts.ssoNoResult);
    return;
  }

  const openerOrigin = document.body.dataset.openerOrigin || window.location.origin;
  const returnUrl = document.body.dataset.returnUrl;
  if (window.opener && !window.opener.closed) {
    window.opener.postMessage({ type: 'platform.sso.complete', ...result }, openerOrigin);
    show('ok', headline, texts.ssoHandedToApp);
  } else if (returnUrl) {
    show('ok', headline, texts.ssoReturning);
    window.location.replace(`${returnUrl.split('#')[0]}#${fragment}`);
  } else {
    show('ok', headline, texts.ssoCloseWindow);
  }
})();
