import { Topics } from '@platform/kafka';
import { captureEvents, startSmtpSink, type SmtpSink } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseMailCooldown } from '../src/domain/verification/email-cooldown.js';
import { startIdentityHarness, type IdentityHarness } from './support/harness.js';
import { extractSecrets, insertUser, unknownEmail, useSmtpSink } from './support/verification-fixtures.js';

let harness: IdentityHarness;
let sink: SmtpSink;
const WEB_URL = 'https://web.example.test';

beforeAll(async () => {
  sink = await startSmtpSink();
  harness = await startIdentityHarness({ PUBLIC_WEB_URL: WEB_URL });
  await useSmtpSink(harness, sink);
});
afterAll(async () => {
  await harness?.stop();
  await sink?.close();
});

const post = (path: string, json: unknown, headers?: Record<string, string>) =>
  harness.request('POST', path, { json, headers });

async function userRow(id: string) {
  const { rows } = await harness.identity.dependencies.pool.query(
    `SELECT email_verified, password_hash, failed_login_attempts, locked_until, force_password_change
       FROM users WHERE id = $1`,
    [id],
  );
  return rows[0];
}

async function openTokenCount(email: string): Promise<number> {
  const { rows } = await harness.identity.dependencies.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM verification_tokens WHERE email = $1`,
    [email],
  );
  return rows[0]!.n;
}

describe('email verification (register)', () => {
  it('queues a mail with the 6-digit code and a ?token= link; the code verifies the address once', async () => {
    const user = await insertUser(harness);
    const sent = await post('/send-verification', { email: user.email });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      code: 0,
      data: { email: user.email, purpose: 'register', cooldown_seconds: 60 },
    });

    const mail = await sink.waitForMail(user.email);
    expect(mail.from).toBe('noreply@example.test');
    expect(mail.subject).toContain('verify your email');
    const { code, link, token } = extractSecrets(mail);
    expect(link.startsWith(`${WEB_URL}/verify?token=`)).toBe(true);
    expect(mail.html).toContain(code);
    // Only hashes are stored.
    const { rows } = await harness.identity.dependencies.pool.query(
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
    const link2 = await harness.request('GET', `/verify?token=${encodeURIComponent(token)}`);
    expect(link2.status).toBe(400);
    expect(link2.body.code).toBe(5006);

    const audit = await harness.identity.dependencies.pool.query(
      `SELECT action, details FROM audit_log WHERE target_id = $1 AND action = 'user.email_verified'`,
      [user.id],
    );
    expect(audit.rows).toEqual([{ action: 'user.email_verified', details: { method: 'code' } }]);
  });

  it('GET /verify?token= gives the same result as the code flow and is single-use', async () => {
    const user = await insertUser(harness);
    expect((await post('/send-verification', { email: user.email, purpose: 'register' })).status).toBe(200);
    const { token, code } = extractSecrets(await sink.waitForMail(user.email));

    const verified = await harness.request('GET', `/verify?token=${encodeURIComponent(token)}`);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ code: 0, data: { verified: true, email: user.email } });
    expect((await userRow(user.id)).email_verified).toBe(true);

    const reused = await harness.request('GET', `/verify?token=${encodeURIComponent(token)}`);
    expect(reused.body.code).toBe(5006);
    expect((await post('/verify-email', { email: user.email, code })).body.code).toBe(5005);
  });

  it('a bad or expired link token gives 400 / 5006', async () => {
    const bogus = await harness.request('GET', '/verify?token=not-a-real-token');
    expect(bogus.status).toBe(400);
    expect(bogus.body.code).toBe(5006);

    const user = await insertUser(harness);
    await post('/send-verification', { email: user.email });
    const { token } = extractSecrets(await sink.waitForMail(user.email));
    await harness.identity.dependencies.pool.query(
      `UPDATE verification_tokens SET expires_at = now() - interval '1 second' WHERE email = $1`,
      [user.email],
    );
    const expired = await harness.request('GET', `/verify?token=${encodeURIComponent(token)}`);
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe(5006);
    expect((await userRow(user.id)).email_verified).toBe(false);
  });

  it('rule 1: an unknown address gives 400 / 4000, an already verified one 400 / 1001', async () => {
    const missing = await post('/send-verification', { email: unknownEmail() });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe(4000);

    const verified = await insertUser(harness, { verified: true });
    const res = await post('/send-verification', { email: verified.email, purpose: 'register' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1001);
    expect(res.body.data.error_key).toBe('email_already_verified');
  });

  it('rule 6: a second mail within 60 s gives 400 / 5008 with data.remaining_seconds', async () => {
    const user = await insertUser(harness);
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
    const user = await insertUser(harness);
    await post('/send-verification', { email: user.email });
    const { code } = extractSecrets(await sink.waitForMail(user.email));
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
    const user = await insertUser(harness);
    await post('/send-verification', { email: user.email });
    const first = extractSecrets(await sink.waitForMail(user.email));
    await releaseMailCooldown(harness.identity.dependencies.redis, user.email, 'register');
    const before = sink.mails.length;
    expect((await post('/send-verification', { email: user.email })).status).toBe(200);
    const second = extractSecrets(await sink.waitForMail(user.email, { after: before }));
    expect((await post('/verify-email', { email: user.email, code: first.code })).body.code).toBe(
      first.code === second.code ? 0 : 5005,
    );
    await harness.identity.dependencies.pool.query(
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

    const verified = await insertUser(harness, { verified: true });
    const refused = await post('/resend-verification', { email: verified.email });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(1001);

    const user = await insertUser(harness);
    expect((await post('/resend-verification', { email: user.email })).status).toBe(200);
    extractSecrets(await sink.waitForMail(user.email));
  });

  it('mails follow the user locale, else Accept-Language', async () => {
    const zhUser = await insertUser(harness, { locale: 'zh' });
    await post('/send-verification', { email: zhUser.email });
    const zhMail = await sink.waitForMail(zhUser.email);
    expect(zhMail.subject).toContain('验证您的邮箱');
    expect(zhMail.text).toContain('验证码');

    const other = await insertUser(harness);
    await post('/forgot-password', { email: other.email }, { 'accept-language': 'zh-CN,zh;q=0.9' });
    const mail = await sink.waitForMail(other.email);
    expect(mail.subject).toContain('重置您的密码');
    extractSecrets(mail);
  });
});

describe('password reset', () => {
  it('forgot-password mails a code and a web link; email + code sets the password and lifts a lockout', async () => {
    const user = await insertUser(harness);
    await harness.identity.dependencies.pool.query(
      `UPDATE users SET failed_login_attempts = 5, locked_until = now() + interval '10 minutes',
                        force_password_change = true WHERE id = $1`,
      [user.id],
    );
    const res = await post('/forgot-password', { email: user.email });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ email: user.email, purpose: 'reset_password', cooldown_seconds: 60 });
    const mail = await sink.waitForMail(user.email);
    expect(mail.subject).toContain('reset your password');
    const { code, link } = extractSecrets(mail);
    expect(link.startsWith(`${WEB_URL}/reset-password?token=`)).toBe(true);

    // verify-email with purpose reset_password checks the code without consuming it.
    const checked = await post('/verify-email', { email: user.email, code, purpose: 'reset_password' });
    expect(checked.body).toMatchObject({ code: 0, data: { verified: true, email: user.email } });

    // A session from before the reset (the user's, or an attacker's).
    const earlier = await harness.identity.dependencies.tokens.issue(user.id, 'access', 3_600);
    expect((await harness.request('GET', '/users/me', { token: earlier.token })).status).toBe(200);
    const reset = await post('/reset-password', {
      email: user.email,
      code,
      new_password: 'Brand-new-pass-2',
    });
    expect(reset.status).toBe(200);
    // The reset ends every earlier token at once.
    const ended = await harness.request('GET', '/users/me', { token: earlier.token });
    expect([ended.status, ended.body.code]).toEqual([401, 2001]);
    expect(reset.body).toMatchObject({ code: 0, data: { password_reset: true, email: user.email } });
    const row = await userRow(user.id);
    expect(row.failed_login_attempts).toBe(0);
    expect(row.locked_until).toBeNull();
    expect(row.force_password_change).toBe(false);
    expect(await harness.identity.dependencies.passwords.verify('Brand-new-pass-2', row.password_hash)).toBe(
      true,
    );

    const reused = await post('/reset-password', { email: user.email, code, new_password: 'Another-pass-3' });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe(5005);
    const audit = await harness.identity.dependencies.pool.query(
      `SELECT action FROM audit_log WHERE target_id = $1 ORDER BY id`,
      [user.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['user.password_reset_requested', 'user.password_reset']);
  });

  it('the link token resets the password once and emits the notification events; a bad token gives 5005', async () => {
    const user = await insertUser(harness);
    const capture = await captureEvents(harness.identity.dependencies.kafka, 'verification', [
      Topics.NOTIFICATION_EVENTS,
    ]);
    const events = () =>
      capture.messages
        .map((m) => m.value as { type: string; user_id: string; scope: string; source_service: string })
        .filter((e) => e.user_id === user.id);
    await post('/send-verification', { email: user.email, purpose: 'reset_password' });
    const { token } = extractSecrets(await sink.waitForMail(user.email));
    const reset = await post('/reset-password', { token, new_password: 'Link-reset-pass-4' });
    expect(reset.status).toBe(200);
    expect(reset.body.data).toEqual({ password_reset: true, email: user.email });
    await expect
      .poll(
        () =>
          events()
            .map((e) => e.type)
            .sort(),
        { timeout: 15_000 },
      )
      .toEqual(['security.password_changed', 'user.password_reset']);
    expect(events()[0]).toMatchObject({ scope: 'user', source_service: 'identity' });
    await capture.stop();
    const again = await post('/reset-password', { token, new_password: 'Link-reset-pass-5' });
    expect(again.body.code).toBe(5005);
    const bogus = await post('/reset-password', { token: 'x'.repeat(43), new_password: 'Link-reset-pass-5' });
    expect(bogus.status).toBe(400);
    expect(bogus.body.code).toBe(5005);
    const wrongCode = await post('/reset-password', {
      email: user.email,
      code: '123456',
      new_password: 'Link-reset-pass-5',
    });
    expect(wrongCode.body.code).toBe(5005);
  });

  it('a password outside the policy gives 400 / 1001 with data.errors.new_password; the code survives', async () => {
    const user = await insertUser(harness);
    await post('/forgot-password', { email: user.email });
    const { code } = extractSecrets(await sink.waitForMail(user.email));
    const weak = await post('/reset-password', { email: user.email, code, new_password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe(1001);
    expect(weak.body.data.errors.new_password.length).toBeGreaterThanOrEqual(1);
    const ok = await post('/reset-password', { email: user.email, code, new_password: 'Long-enough-pass-6' });
    expect(ok.status).toBe(200);
  });

  it('an expired reset code gives 5005; a user deleted since the mail gives 400 / 4000', async () => {
    const expiredUser = await insertUser(harness);
    await post('/forgot-password', { email: expiredUser.email });
    const expired = extractSecrets(await sink.waitForMail(expiredUser.email));
    await harness.identity.dependencies.pool.query(
      `UPDATE verification_tokens SET expires_at = now() - interval '1 second' WHERE email = $1`,
      [expiredUser.email],
    );
    const late = await post('/reset-password', {
      email: expiredUser.email,
      code: expired.code,
      new_password: 'Valid-pass-7',
    });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe(5005);

    const gone = await insertUser(harness);
    await post('/forgot-password', { email: gone.email });
    const { token } = extractSecrets(await sink.waitForMail(gone.email));
    await harness.identity.dependencies.pool.query(`DELETE FROM users WHERE id = $1`, [gone.id]);
    const res = await post('/reset-password', { token, new_password: 'Valid-pass-7' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(4000);
  });

  it('rule 9: a code for an address with no account gives 400 / 4000, not 5005', async () => {
    const res = await post('/reset-password', {
      email: unknownEmail(),
      code: '123456',
      new_password: 'Valid-pass-7',
    });
    expect([res.status, res.body.code]).toEqual([400, 4000]);
  });

  it('rules 2 and 4: unknown addresses succeed without a mail, and still get the cooldown', async () => {
    const nobody = unknownEmail();
    const forgot = await post('/forgot-password', { email: nobody });
    expect(forgot.status).toBe(200);
    expect(forgot.body.data).toEqual({ email: nobody, purpose: 'reset_password', cooldown_seconds: 60 });
    expect((await post('/forgot-password', { email: nobody })).body.code).toBe(5008);
    expect((await post('/send-verification', { email: nobody, purpose: 'reset_password' })).body.code).toBe(
      5008,
    );
    const other = unknownEmail();
    expect((await post('/send-verification', { email: other, purpose: 'reset_password' })).status).toBe(200);
    expect(await openTokenCount(nobody)).toBe(0);
    expect(await openTokenCount(other)).toBe(0);
  });
});

describe('settings-dependent failures', () => {
  it('rule 7: SMTP disabled or not configured gives 400 / 5007 on every mail route', async () => {
    const user = await insertUser(harness);
    try {
      await harness.setSettings({ smtp_enabled: false });
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
      await harness.setSettings({ smtp_enabled: true, smtp_host: '' });
      expect((await post('/forgot-password', { email: user.email })).body.code).toBe(5007);
    } finally {
      await useSmtpSink(harness, sink);
    }
    // Nothing was claimed while SMTP was off.
    expect((await post('/send-verification', { email: user.email })).status).toBe(200);
  });

  it('with enable_captcha on, recovery needs a captcha (5302 missing, 5303 invalid); register mails do not', async () => {
    const user = await insertUser(harness);
    try {
      await harness.setSettings({ enable_captcha: true });
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
      await harness.setSettings({ enable_captcha: false });
    }
  });
});
