import { randomUUID } from 'node:crypto';
import { translate, type Locale } from '@platform/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestOidcProvider,
  type TestOidcProvider,
} from '../../identity/test/support/oidc-test-provider.js';
import { createTestUser } from '../../identity/test/support/rbac-users.js';
import { createProvider } from '../../identity/test/support/sso-fixtures.js';
import { PAGE_CSP } from '../src/pages/index.js';
import {
  launchChromium,
  pageIn,
  screenshot,
  startPagesStack,
  startRecordingServer,
  textOf,
  type PagesStack,
  type RecordingServer,
} from './support/pages-browser.js';

// An SSO sign-in in a real browser against the local OpenID Connect provider, ending on the
// gateway's /sso/complete page, which hands the token to the opener or to the return URL.
const PROVIDER = 'corp';
const TEXTS = {
  en: { signedIn: 'You are signed in.', failed: 'The sign-in did not complete.' },
  zh: { signedIn: '登录成功。', failed: '登录未完成。' },
};
let stack: PagesStack;
let op: TestOidcProvider;
/** The web app `SSO_COMPLETE_RETURN_URL` points at (another origin). */
let app: RecordingServer;

beforeAll(async () => {
  app = await startRecordingServer();
  app.serve((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>app</p>'));
  stack = await startPagesStack(
    { SSO_ALLOW_INSECURE_ISSUERS: 'true' },
    { SSO_COMPLETE_RETURN_URL: `${app.url}/signed-in` },
  );
  op = await startTestOidcProvider(stack.webUrl, [PROVIDER]);
  const admin = await createTestUser(stack.harness, { superuser: true, name: 'pagesadmin' });
  await stack.harness.setSettings({
    sso_enabled: true,
    sso_allow_password_login: true,
    allow_registration: true,
    require_approval: false,
    email_verification: false,
    require_totp: false,
  });
  const created = await createProvider({ harness: stack.harness, op, admin, stop: async () => {} }, PROVIDER);
  expect(created.body.code).toBe(0);
}, 120_000);

afterAll(async () => {
  await op?.stop();
  await stack?.stop();
  await app?.close();
});

const account = () => {
  const id = randomUUID().slice(0, 8);
  return { sub: `sub-${id}`, email: `pages_${id}@idp.test`, email_verified: true };
};

async function me(token: string) {
  return stack.harness.request('GET', '/users/me', { token });
}

describe.each(['en', 'zh'] as Locale[])('SSO complete page (%s)', (locale) => {
  it('a popup signs in at the provider; the page hands the token to its opener by postMessage', async () => {
    // The popup's requests must carry the language too: a browser whose Accept-Language is it.
    const browser = await launchChromium(locale);
    const opener = await pageIn(browser, locale);
    await opener.goto(`${stack.webUrl}/api/v1/health`);
    const user = account();
    op.setNextAccount(user);
    const popupTarget = browser.waitForTarget((t) => t.url().startsWith(`${stack.webUrl}/sso/complete`));
    // In the opener (a page of the gateway's origin): listen, then open the sign-in as a popup.
    await opener.evaluate(`
      window.addEventListener('message', (event) => { window.received = { origin: event.origin, data: event.data }; });
      window.open('/api/v1/sso/login/${PROVIDER}', 'sso', 'popup');
    `);
    const popup = (await (await popupTarget).page())!;
    await opener.waitForFunction('window.received !== undefined');
    const received = (await opener.evaluate('window.received')) as {
      origin: string;
      data: { type: string; access_token: string; token_type: string };
    };
    expect(received.origin).toBe(stack.webUrl);
    expect(received.data.type).toBe('platform.sso.complete');
    expect(received.data.token_type).toBe('bearer');
    const signedIn = await me(received.data.access_token);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.email).toBe(user.email);

    await popup.waitForSelector('.outcome.ok');
    expect(await textOf(popup, '.outcome.ok')).toBe(TEXTS[locale].signedIn);
    // The fragment is gone from the address bar and the history.
    expect(popup.url()).toBe(`${stack.webUrl}/sso/complete`);
    await screenshot(popup, `sso-complete-signed-in-${locale}`, { desktop: true });
    await browser.close();
  });

  it('without an opener the page forwards the result to the configured return URL', async () => {
    const page = await pageIn(await stack.browser.createBrowserContext(), locale);
    const user = account();
    op.setNextAccount(user);
    await page.goto(`${stack.webUrl}/api/v1/sso/login/${PROVIDER}`);
    await expect.poll(() => page.url().startsWith(app.url), { timeout: 15_000, interval: 50 }).toBe(true);
    const url = new URL(page.url());
    expect(`${url.origin}${url.pathname}`).toBe(`${app.url}/signed-in`);
    const fragment = new URLSearchParams(url.hash.slice(1));
    expect((await me(fragment.get('access_token')!)).body.data.email).toBe(user.email);
    // The app's server never saw the token (fragments are not sent) nor a Referer from the page.
    expect(app.seen.filter((r) => r.url.includes('token'))).toEqual([]);
    const landings = app.seen.filter((r) => r.url === '/signed-in');
    expect(landings.length).toBeGreaterThan(0);
    expect(landings.filter((r) => r.referer !== undefined)).toEqual([]);
    await page.close();
  });

  it('a failed sign-in lands on the page with the catalog text; a crafted fragment cannot add words', async () => {
    const page = await pageIn(await stack.browser.createBrowserContext(), locale);
    op.denyNext('access_denied');
    const response = await page.goto(`${stack.webUrl}/api/v1/sso/login/${PROVIDER}`);
    expect(response).not.toBeNull();
    await page.waitForSelector('.outcome.error');
    expect(page.url()).toBe(`${stack.webUrl}/sso/complete`);
    expect(await textOf(page, '.outcome.error')).toBe(TEXTS[locale].failed);
    expect(await textOf(page, '#sso-detail')).toBe(translate('sso_authentication_failed', locale));
    await screenshot(page, `sso-complete-failed-${locale}`);

    await page.goto(`${stack.webUrl}/sso/complete#error=${encodeURIComponent('Call +1 555 0100 now')}`);
    await page.waitForSelector('.outcome.error');
    expect(await page.content()).not.toContain('555 0100');
    await page.close();
  });
});

describe('SSO complete page headers', () => {
  it('is no-store with the strict CSP and no referrer', async () => {
    const response = await fetch(`${stack.webUrl}/sso/complete`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    expect(html).toContain(`data-return-url="${app.url}/signed-in"`);
    expect(html).not.toMatch(/<script>(?!\s*<\/script>)/);
    // Referers only ever name an origin or the opener's page; the pages' own requests send none.
    expect(stack.web.seen.filter((r) => /token|code=|#/.test(r.referer ?? ''))).toEqual([]);
    const fromPages = stack.web.seen.filter((r) => r.url.startsWith('/assets/'));
    expect(fromPages.length).toBeGreaterThan(0);
    expect(fromPages.filter((r) => r.referer !== undefined)).toEqual([]);
  });
});
