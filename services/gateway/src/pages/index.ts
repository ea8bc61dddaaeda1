import type { Logger } from '@platform/logger';
import express, { type Router } from 'express';
import type { PageDeps } from './page-context.js';
import { showResetForm, submitResetForm } from './reset-password-page.js';
import { ssoCompletePage } from './sso-complete-page.js';
import { loadStaticAssets } from './static-assets.js';
import { verifyEmailPage } from './verify-page.js';

export { PAGE_CSP } from './render.js';

/** Every file of `public/` the pages use (read at start: a missing file fails the start). */
export const PAGE_ASSETS = ['pages.css', 'reset-password.js', 'sso-complete.js'] as const;

export interface AccountPagesOptions {
  clients: PageDeps['clients'];
  logger: Logger;
  /** `SSO_COMPLETE_OPENER_ORIGIN`: the origin `/sso/complete` posts the sign-in to; default its own. */
  ssoOpenerOrigin?: string;
  /** `SSO_COMPLETE_RETURN_URL`: where `/sso/complete` sends the browser when no opener waits. */
  ssoReturnUrl?: string;
}

/**
 * The pages behind the links the platform mails and redirects to, outside `/api/v1`
 * (docs/account-pages.md): `/reset-password`, `/verify`, `/sso/complete` and their `/assets/`.
 */
export function accountPages(options: AccountPagesOptions): Router {
  const deps: PageDeps = {
    clients: options.clients,
    logger: options.logger,
    assets: loadStaticAssets(PAGE_ASSETS),
    sso: { openerOrigin: options.ssoOpenerOrigin, returnUrl: options.ssoReturnUrl },
  };
  const router = express.Router({ caseSensitive: true, strict: false });
  router.get('/reset-password', showResetForm(deps));
  router.post('/reset-password', submitResetForm(deps));
  router.get('/verify', verifyEmailPage(deps));
  router.get('/sso/complete', ssoCompletePage(deps));
  router.get('/assets/:name', (req, res) => deps.assets.handler(req, res));
  return router;
}
