import { randomBytes } from 'node:crypto';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { ErrorCode, getCatalogEntry, translate, type Locale } from '@platform/errors';
import { createLogger } from '@platform/logger';
import { listen } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../../identity/test/support/auth-accounts.js';
import { startSmtpSink, type SmtpSink } from '@platform/testing';
import {
  extractSecrets,
  insertUser,
  useSmtpSink,
  type TestUser,
} from '../../identity/test/support/verification-fixtures.js';
import { createGatewayApp } from '../src/index.js';
import { accountPages, PAGE_CSP } from '../src/pages/index.js';
import {
  pageIn,
  retype,
  screenshot,
  startPagesStack,
  textOf,
  textsOf,
  type PagesStack,
} from './support/pages-browser.js';

// The account pages in a real browser (Debian's chromium through puppeteer-core), against the real
// identity service behind the real gateway, with PUBLIC_WEB_URL = that gateway.
let stack: PagesStack;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  stack = await startPagesStack();
  await useSmtpSink(stack.harness, sink);
  await stack.harness.setSettings({
    password_min_length: 8,
    password_require_uppercase: false,
    password_require_lowercase: false,
    password_require_digit: true,
    password_require_symbol: false,
  });
});
afterAll(async () => {
  await stack?.stop();
  await sink?.close();
});

const LOCALES: Locale[] = ['en', 'zh'];
const catalogText = (code: ErrorCode, locale: Locale) => translate(getCatalogEntry(code)!.msgKey, locale);
const title = { en: 'Choose a new password', zh: '设置新密码' };

async function mailedLink(user: TestUser, path: '/forgot-password' | '/send-verification'): Promise<string> {
  const after = sink.mails.length;
  const sent = await stack.harness.request('POST', path, { json: { email: user.email } });
  expect(sent.body.code).toBe(0);
  return extractSecrets(await sink.waitForMail(user.email, { after })).link;
}

function expectPageHeaders(headers: Record<string, string>): void {
  expect(headers['content-security-policy']).toBe(PAGE_CSP);
  expect(PAGE_CSP).toContain("default-src 'none'");
  expect(PAGE_CSP).toContain("connect-src 'self'");
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['cache-control']).toBe('no-store');
}

describe.each(LOCALES)('reset password page (%s)', (locale) => {
  it('mailed link → form with the policy → weak password refused with field messages → new password → sign-in works', async () => {
    const user = await insertUser(stack.harness, { verified: true, locale });
    const link = await mailedLink(user, '/forgot-password');
    expect(link.startsWith(`${stack.webUrl}/reset-password?token=`)).toBe(true);

    const page = await pageIn(stack.browser, locale);
    const response = await page.goto(link, { waitUntil: 'networkidle0' });
    expect(response!.status()).toBe(200);
    expectPageHeaders(response!.headers());
    expect(await textOf(page, 'h1')).toBe(title[locale]);
    expect(await page.$eval('html', (e) => e.lang)).toBe(locale === 'zh' ? 'zh-CN' : 'en');
    expect(await textsOf(page, '#policy li')).toEqual([
      translate('password_too_short', locale, { min_length: 8 }),
      translate('password_too_long', locale, { max_length: 128 }),
      translate('password_requires_digit', locale),
    ]);
    // The token left the address bar (it stays in the form only).
    expect(page.url()).toBe(`${stack.webUrl}/reset-password`);
    await screenshot(page, `reset-password-form-${locale}`, { desktop: true });

    // Too short: the page checks the policy itself, in the page's language.
    await page.type('#new_password', 'short');
    await page.type('#confirm_password', 'short');
    await page.click('button[type="submit"]');
    await page.waitForSelector('#new_password-errors li');
    expect(await textsOf(page, '#new_password-errors li')).toEqual([
      translate('password_too_short', locale, { min_length: 8 }),
      translate('password_requires_digit', locale),
    ]);
    await screenshot(page, `reset-password-weak-${locale}`);

    // A rule the page did not know when it loaded: the API's 1001 field messages are shown.
    await stack.harness.setSettings({ password_require_symbol: true });
    try {
      await retype(page, '#new_password', 'Longenough1');
      await retype(page, '#confirm_password', 'Longenough1');
      await page.click('button[type="submit"]');
      const reason = JSON.stringify(translate('password_requires_special', locale));
      await page.waitForFunction(
        `document.querySelector('#new_password-errors').textContent.includes(${reason})`,
      );
    } finally {
      await stack.harness.setSettings({ password_require_symbol: false });
    }

    await retype(page, '#new_password', 'Brand-new-pass-9');
    await retype(page, '#confirm_password', 'Brand-new-pass-9');
    await page.click('button[type="submit"]');
    await page.waitForSelector('.outcome.ok');
    expect(await textOf(page, '.outcome.ok')).toBe(translate('password_reset_success', locale));
    await screenshot(page, `reset-password-done-${locale}`);

    expect((await login(stack.harness, user.username, 'Original-pass-1')).body.code).not.toBe(0);
    const signedIn = await login(stack.harness, user.username, 'Brand-new-pass-9');
    expect(signedIn.body.code).toBe(0);
    expect(signedIn.body.data.access_token).toBeTruthy();

    // The used link now says so, before anyone types a password.
    const again = await page.goto(link);
    expect(again!.status()).toBe(400);
    expect(await textOf(page, '.outcome.error')).toBe(
      catalogText(ErrorCode.VERIFICATION_CODE_EXPIRED, locale),
    );
    expect(await page.$('#reset-form')).toBeNull();
    await screenshot(page, `reset-password-used-link-${locale}`);
    await page.close();
  });

  it('works without JavaScript: the form posts to the page, which shows field messages, then success', async () => {
    const user = await insertUser(stack.harness, { verified: true, locale });
    const link = await mailedLink(user, '/forgot-password');
    const page = await pageIn(stack.browser, locale);
    await page.setJavaScriptEnabled(false);
    await page.goto(link);
    await page.type('#new_password', 'short');
    await page.type('#confirm_password', 'short');
    await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
    expect(await textsOf(page, '#new_password-errors li')).toEqual([
      translate('password_too_short', locale, { min_length: 8 }),
      translate('password_requires_digit', locale),
    ]);

    await page.type('#new_password', 'Brand-new-pass-9');
    await page.type('#confirm_password', 'Brand-new-pass-9');
    const [done] = await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
    expectPageHeaders(done!.headers());
    expect(await textOf(page, '.outcome.ok')).toBe(translate('password_reset_success', locale));
    expect((await login(stack.harness, user.username, 'Brand-new-pass-9')).body.code).toBe(0);
    await page.close();
  });

  it('an expired link says so (and a mangled one too)', async () => {
    const user = await insertUser(stack.harness, { verified: true, locale });
    const link = await mailedLink(user, '/forgot-password');
    await stack.harness.identity.dependencies.pool.query(
      `UPDATE verification_tokens SET expires_at = now() - interval '1 second' WHERE email = $1`,
      [user.email],
    );
    const page = await pageIn(stack.browser, locale);
    const response = await page.goto(link);
    expect(response!.status()).toBe(400);
    expectPageHeaders(response!.headers());
    expect(await textOf(page, '.outcome.error')).toBe(
      catalogText(ErrorCode.VERIFICATION_CODE_EXPIRED, locale),
    );
    await screenshot(page, `reset-password-expired-${locale}`);

    await page.goto(`${stack.webUrl}/reset-password`);
    expect(await textOf(page, '.outcome.error')).toBe(
      catalogText(ErrorCode.VERIFICATION_CODE_INVALID, locale),
    );
    await page.close();
  });
});

describe('reset form without script, under a burst', () => {
  it('12 parallel posts of one link: exactly one sets the password, the others show 5005', async () => {
    const user = await insertUser(stack.harness, { verified: true });
    const token = new URL(await mailedLink(user, '/forgot-password')).searchParams.get('token')!;
    const post = (i: number) =>
      fetch(`${stack.webUrl}/reset-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token,
          new_password: `Burst-pass-${i}`,
          confirm_password: `Burst-pass-${i}`,
        }),
      }).then(async (r) => ({ status: r.status, html: await r.text() }));
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => post(i)));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(won[0]!.html).toContain(translate('password_reset_success', 'en'));
    const lost = answers.filter((a) => a.status === 400);
    expect(lost).toHaveLength(11);
    for (const a of lost) expect(a.html).toContain(catalogText(ErrorCode.VERIFICATION_CODE_INVALID, 'en'));
  });
});

describe.each(LOCALES)('verification page (%s)', (locale) => {
  it('mailed link → the page verifies the address and says so; the link then says it is used', async () => {
    const user = await insertUser(stack.harness, { verified: false, locale });
    const link = await mailedLink(user, '/send-verification');
    expect(link.startsWith(`${stack.webUrl}/verify?token=`)).toBe(true);

    // A link checker's HEAD does not use the link up.
    expect((await fetch(link, { method: 'HEAD' })).status).toBe(200);

    const page = await pageIn(stack.browser, locale);
    const response = await page.goto(link);
    expect(response!.status()).toBe(200);
    expectPageHeaders(response!.headers());
    expect(await textOf(page, '.outcome.ok')).toBe(translate('email_verified', locale));
    expect(await textOf(page, '.detail')).toContain(user.email);
    await screenshot(page, `verify-done-${locale}`, { desktop: true });
    const { rows } = await stack.harness.identity.dependencies.pool.query(
      'SELECT email_verified FROM users WHERE id = $1',
      [user.id],
    );
    expect(rows[0].email_verified).toBe(true);

    const again = await page.goto(link);
    expect(again!.status()).toBe(400);
    expect(await textOf(page, '.outcome.error')).toBe(
      catalogText(ErrorCode.VERIFICATION_CODE_EXPIRED, locale),
    );
    await screenshot(page, `verify-used-link-${locale}`);
    await page.close();
  });
});

describe('what the pages leak and how they are cached', () => {
  it('no request the browser made carried a Referer; no URL but the mailed links carried a token', () => {
    expect(stack.web.seen.length).toBeGreaterThan(10);
    expect(stack.web.seen.filter((r) => r.referer !== undefined)).toEqual([]);
    const withToken = stack.web.seen.filter((r) => r.url.includes('token='));
    expect(withToken.every((r) => /^\/(reset-password|verify)\?token=/.test(r.url))).toBe(true);
  });

  it('serves the assets with an ETag: a versioned URL is immutable, others revalidate; 304 on a match', async () => {
    const page = await fetch(`${stack.webUrl}/reset-password?token=x`);
    const html = await page.text();
    const cssPath = /href="(\/assets\/pages\.css\?v=[0-9a-f]{16})"/.exec(html)?.[1];
    expect(cssPath).toBeTruthy();
    const css = await fetch(`${stack.webUrl}${cssPath}`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = css.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    // node:http, not fetch: fetch adds `Cache-Control: no-cache` to conditional requests.
    const unversioned = await new Promise<IncomingMessage>((resolve, reject) =>
      httpGet(`${stack.webUrl}/assets/pages.css`, { headers: { 'if-none-match': etag } }, resolve).on(
        'error',
        reject,
      ),
    );
    unversioned.resume();
    expect(unversioned.statusCode).toBe(304);
    expect(unversioned.headers['cache-control']).toBe('no-cache');
    expect((await fetch(`${stack.webUrl}/assets/nothing.js`)).status).toBe(404);
  });
});

describe('the access log', () => {
  it('logs the pages by path only: no link token, whether the page succeeds or fails', async () => {
    const lines: string[] = [];
    const logger = createLogger('gateway', 'info', { write: (line: string) => void lines.push(line) });
    const clients = stack.harness.gateway.clients;
    const app = createGatewayApp({ logger, routes: [], clients, pages: accountPages({ clients, logger }) });
    const http = await listen(app);
    try {
      const user = await insertUser(stack.harness, { verified: true });
      const token = new URL(await mailedLink(user, '/forgot-password')).searchParams.get('token')!;
      const bogus = randomBytes(24).toString('base64url');
      expect((await fetch(`${http.baseUrl}/reset-password?token=${token}`)).status).toBe(200);
      expect((await fetch(`${http.baseUrl}/verify?token=${bogus}`)).status).toBe(400);
      const posted = await fetch(`${http.baseUrl}/reset-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, new_password: 'x', confirm_password: 'x' }).toString(),
      });
      expect(posted.status).toBe(400);
    } finally {
      await http.close();
    }
    const requests = lines.map((line) => JSON.parse(line)).filter((l) => l.msg === 'request');
    expect(requests.map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual([
      'GET /reset-password 200',
      'GET /verify 400',
      'POST /reset-password 400',
    ]);
    expect(lines.join('\n')).not.toMatch(/token=/);
  });
});
