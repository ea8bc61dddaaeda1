// POST /send-verification, POST /verify-email, GET /verify and POST /resend-verification (gateway
// routes/identity-verification-routes.ts, public): the flows, their errors and bad input (and the
// body-class checks of every mail route). POST /forgot-password and /reset-password:
// forgot-and-reset-password.int.test.ts.
import { describe, expect, it } from 'vitest';
import { releaseMailCooldown } from '../../src/domain/verification/email-cooldown.js';
import { useMailSuite } from '../support/mail-suite.js';
import { email, longEmail, verificationInput } from '../support/verification-input.js';
import { extractSecrets, insertUser, unknownEmail, useSmtpSink } from '../support/verification-fixtures.js';

const WEB_URL = 'https://web.example.test';
const suite = useMailSuite(WEB_URL);
const { post, userRow, openTokenCount } = suite;
const { expect422, rawPost } = verificationInput(() => suite.harness);

describe('email verification (register)', () => {
  it('queues a mail with the 6-digit code and a ?token= link; the code verifies the address once', async () => {
    const user = await insertUser(suite.harness);
    const sent = await post('/send-verification', { email: user.email });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      code: 0,
      data: { email: user.email, purpose: 'register', cooldown_seconds: 60 },
    });

    const mail = await suite.sink.waitForMail(user.email);
    expect(mail.from).toBe('noreply@example.test');
    expect(mail.subject).toContain('verify your email');
    const { code, link, token } = extractSecrets(mail);
    expect(link.startsWith(`${WEB_URL}/verify?token=`)).toBe(true);
    expect(mail.html).toContain(code);
    // Only hashes are stored.
    const { rows } = await suite.harness.identity.dependencies.pool.query(
      `SELECT code_hash, link_token_hash FROM verification_tokens WHERE email = $1`,
      [user.email],
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toContain(code);
    expect(JSON.stringify(rows[0])).not.toContain(token);

    const verified = await post('/verify-email', { email: user.email, code, purpose: 'register' });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ code: 0, data: { verified: true, email: user.email } });
    expect((await userRow(user.id)).email_verified).toBe(true);

    const again = await post('/verify-email', { email: user.email, code });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe(5005);
    // The link of the same mail is consumed too.
    const link2 = await suite.harness.request('GET', `/verify?token=${encodeURIComponent(token)}`);
    expect(link2.status).toBe(400);
    expect(link2.body.code).toBe(5006);

    const audit = await suite.harness.identity.dependencies.pool.query(
      `SELECT action, details FROM audit_log WHERE target_id = $1 AND action = 'user.email_verified'`,
      [user.id],
    );
    expect(audit.rows).toEqual([{ action: 'user.email_verified', details: { method: 'code' } }]);
  });

  it('GET /verify?token= gives the same result as the code flow and is single-use', async () => {
    const user = await insertUser(suite.harness);
    expect((await post('/send-verification', { email: user.email, purpose: 'register' })).status).toBe(200);
    const { token, code } = extractSecrets(await suite.sink.waitForMail(user.email));

    const verified = await suite.harness.request('GET', `/verify?token=${encodeURIComponent(token)}`);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ code: 0, data: { verified: true, email: user.email } });
    expect((await userRow(user.id)).email_verified).toBe(true);

    const reused = await suite.harness.request('GET', `/verify?token=${encodeURIComponent(token)}`);
    expect(reused.body.code).toBe(5006);
    expect((await post('/verify-email', { email: user.email, code })).body.code).toBe(5005);
  });

  it('a bad or expired link token gives 400 / 5006', async () => {
    const bogus = await suite.harness.request('GET', '/verify?token=not-a-real-token');
    expect(bogus.status).toBe(400);
    expect(bogus.body.code).toBe(5006);

    const user = await insertUser(suite.harness);
    await post('/send-verification', { email: user.email });
    const { token } = extractSecrets(await suite.sink.waitForMail(user.email));
    await suite.harness.identity.dependencies.pool.query(
      `UPDATE verification_tokens SET expires_at = now() - interval '1 second' WHERE email = $1`,
      [user.email],
    );
    const expired = await suite.harness.request('GET', `/verify?token=${encodeURIComponent(token)}`);
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe(5006);
    expect((await userRow(user.id)).email_verified).toBe(false);
  });

  it('rule 1: an unknown address gives 400 / 4000, an already verified one 400 / 1001', async () => {
    const missing = await post('/send-verification', { email: unknownEmail() });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe(4000);

    const verified = await insertUser(suite.harness, { verified: true });
    const res = await post('/send-verification', { email: verified.email, purpose: 'register' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1001);
    expect(res.body.data.error_key).toBe('email_already_verified');
  });

  it('rule 6: a second mail within 60 s gives 400 / 5008 with data.remaining_seconds', async () => {
    const user = await insertUser(suite.harness);
    expect((await post('/send-verification', { email: user.email })).status).toBe(200);
    const again = await post('/send-verification', { email: user.email.toUpperCase() });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe(5008);
    expect(again.body.data.remaining_seconds).toBeGreaterThan(0);
    expect(again.body.data.remaining_seconds).toBeLessThanOrEqual(60);
    // resend shares the register cooldown; the other purpose has its own.
    expect((await post('/resend-verification', { email: user.email })).body.code).toBe(5008);
    expect((await post('/forgot-password', { email: user.email })).status).toBe(200);
  });

  it('rule 8: wrong codes give 5005, and the fifth wrong one consumes the code', async () => {
    const user = await insertUser(suite.harness);
    await post('/send-verification', { email: user.email });
    const { code } = extractSecrets(await suite.sink.waitForMail(user.email));
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i += 1) {
      const res = await post('/verify-email', { email: user.email, code: wrong });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(5005);
    }
    const right = await post('/verify-email', { email: user.email, code });
    expect(right.body.code).toBe(5005);
    expect((await userRow(user.id)).email_verified).toBe(false);
  });

  it('an expired code gives 5006; a newer mail retires the older code', async () => {
    const user = await insertUser(suite.harness);
    await post('/send-verification', { email: user.email });
    const first = extractSecrets(await suite.sink.waitForMail(user.email));
    await releaseMailCooldown(suite.harness.identity.dependencies.redis, user.email, 'register');
    const before = suite.sink.mails.length;
    expect((await post('/send-verification', { email: user.email })).status).toBe(200);
    const second = extractSecrets(await suite.sink.waitForMail(user.email, { after: before }));
    expect((await post('/verify-email', { email: user.email, code: first.code })).body.code).toBe(
      first.code === second.code ? 0 : 5005,
    );
    await suite.harness.identity.dependencies.pool.query(
      `UPDATE verification_tokens SET expires_at = now() - interval '1 second' WHERE email = $1`,
      [user.email],
    );
    if (first.code !== second.code) {
      const expired = await post('/verify-email', { email: user.email, code: second.code });
      expect(expired.status).toBe(400);
      expect(expired.body.code).toBe(5006);
    }
  });

  it('rule 3: resend succeeds for an unknown address without mail, and refuses a verified one', async () => {
    const nobody = unknownEmail();
    const res = await post('/resend-verification', { email: nobody });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ email: nobody, purpose: 'register', cooldown_seconds: 60 });
    expect(await openTokenCount(nobody)).toBe(0);
    // The cooldown is claimed for unknown addresses too: same answers as for a real one.
    expect((await post('/resend-verification', { email: nobody })).body.code).toBe(5008);

    const verified = await insertUser(suite.harness, { verified: true });
    const refused = await post('/resend-verification', { email: verified.email });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(1001);

    const user = await insertUser(suite.harness);
    expect((await post('/resend-verification', { email: user.email })).status).toBe(200);
    extractSecrets(await suite.sink.waitForMail(user.email));
  });

  it('mails follow the user locale, else Accept-Language', async () => {
    const zhUser = await insertUser(suite.harness, { locale: 'zh' });
    await post('/send-verification', { email: zhUser.email });
    const zhMail = await suite.sink.waitForMail(zhUser.email);
    expect(zhMail.subject).toContain('验证您的邮箱');
    expect(zhMail.text).toContain('验证码');

    const other = await insertUser(suite.harness);
    await post('/forgot-password', { email: other.email }, { 'accept-language': 'zh-CN,zh;q=0.9' });
    const mail = await suite.sink.waitForMail(other.email);
    expect(mail.subject).toContain('重置您的密码');
    extractSecrets(mail);
  });
});

describe('settings-dependent failures', () => {
  it('rule 7: SMTP disabled or not configured gives 400 / 5007 on every mail route', async () => {
    const user = await insertUser(suite.harness);
    try {
      await suite.harness.setSettings({ smtp_enabled: false });
      for (const [path, body] of [
        ['/send-verification', { email: user.email }],
        ['/send-verification', { email: unknownEmail(), purpose: 'reset_password' }],
        ['/resend-verification', { email: unknownEmail() }],
        ['/forgot-password', { email: unknownEmail() }],
      ] as const) {
        const res = await post(path, body);
        expect(res.status, path).toBe(400);
        expect(res.body.code, path).toBe(5007);
      }
      await suite.harness.setSettings({ smtp_enabled: true, smtp_host: '' });
      expect((await post('/forgot-password', { email: user.email })).body.code).toBe(5007);
    } finally {
      await useSmtpSink(suite.harness, suite.sink);
    }
    // Nothing was claimed while SMTP was off.
    expect((await post('/send-verification', { email: user.email })).status).toBe(200);
  });

  it('with enable_captcha on, recovery needs a captcha (5302 missing, 5303 invalid); register mails do not', async () => {
    const user = await insertUser(suite.harness);
    try {
      await suite.harness.setSettings({ enable_captcha: true });
      const missing = await post('/forgot-password', { email: user.email });
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe(5302);
      const invalid = await post('/forgot-password', {
        email: user.email,
        captcha_id: 'no-such-captcha',
        captcha_token: 'forged',
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body.code).toBe(5303);
      const viaSend = await post('/send-verification', { email: user.email, purpose: 'reset_password' });
      expect(viaSend.body.code).toBe(5302);
      expect((await post('/send-verification', { email: user.email })).status).toBe(200);
    } finally {
      await suite.harness.setSettings({ enable_captcha: false });
    }
  });
});

const ROUTES = [
  '/send-verification',
  '/verify-email',
  '/resend-verification',
  '/forgot-password',
  '/reset-password',
];

describe('verification routes reject bad input with 422 / 1001 before reaching the service', () => {
  it('every route: malformed JSON 400 / 1002, non-object 422, wrong content type 415', async () => {
    for (const path of ROUTES) {
      const malformed = await rawPost(path, '{"email": ');
      expect(malformed.status, path).toBe(400);
      expect(malformed.body.code, path).toBe(1002);
      const array = await rawPost(path, '[]');
      expect(array.status, path).toBe(422);
      expect(array.body.code, path).toBe(1001);
      const form = await rawPost(path, 'email=a%40b.c', 'application/x-www-form-urlencoded');
      expect(form.status, path).toBe(415);
    }
  });

  it('POST /send-verification', async () => {
    await expect422('/send-verification', {}, ['email']);
    await expect422('/send-verification', { email: 42 }, ['email']);
    await expect422('/send-verification', { email: 'not-an-email' }, ['email']);
    await expect422('/send-verification', { email: longEmail }, ['email']);
    await expect422('/send-verification', { email, purpose: 'login' }, ['purpose']);
    await expect422('/send-verification', { email, purpose: 1 }, ['purpose']);
    await expect422('/send-verification', { email, captcha_id: 'x'.repeat(257) }, ['captcha_id']);
    await expect422('/send-verification', { email, captcha_token: 5 }, ['captcha_token']);
  });

  it('POST /verify-email', async () => {
    await expect422('/verify-email', {}, ['email', 'code']);
    await expect422('/verify-email', { email, code: '12345' }, ['code']);
    await expect422('/verify-email', { email, code: '1234567' }, ['code']);
    await expect422('/verify-email', { email, code: 'abcdef' }, ['code']);
    await expect422('/verify-email', { email, code: 123456 }, ['code']);
    await expect422('/verify-email', { email: 'bad', code: '123456' }, ['email']);
    await expect422('/verify-email', { email, code: '123456', purpose: 'other' }, ['purpose']);
  });

  it('GET /verify', async () => {
    const missing = await suite.harness.request('GET', '/verify');
    expect(missing.status).toBe(422);
    expect(missing.body.data.errors).toHaveProperty(['token']);
    const empty = await suite.harness.request('GET', '/verify?token=');
    expect(empty.status).toBe(422);
    const oversize = await suite.harness.request('GET', `/verify?token=${'t'.repeat(513)}`);
    expect(oversize.status).toBe(422);
    const repeated = await suite.harness.request('GET', '/verify?token=a&token=b');
    expect(repeated.status).toBe(422);
  });

  it('POST /resend-verification', async () => {
    await expect422('/resend-verification', {}, ['email']);
    await expect422('/resend-verification', { email: ['a@b.c'] }, ['email']);
    await expect422('/resend-verification', { email: longEmail }, ['email']);
    await expect422('/resend-verification', { email: '' }, ['email']);
  });
});
