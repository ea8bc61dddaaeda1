// POST /forgot-password and POST /reset-password (gateway routes/identity-verification-routes.ts,
// public): the reset flows, their errors and bad input. Malformed bodies of every mail route, and
// the other verification routes: verification.int.test.ts.
import { Topics } from '@platform/kafka';
import { captureEvents } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { useMailSuite } from '../support/mail-suite.js';
import { email, verificationInput } from '../support/verification-input.js';
import { extractSecrets, insertUser, unknownEmail } from '../support/verification-fixtures.js';

const WEB_URL = 'https://web.example.test';
const suite = useMailSuite(WEB_URL);
const { post, userRow, openTokenCount } = suite;
const { expect422 } = verificationInput(() => suite.harness);

describe('password reset', () => {
  it('forgot-password mails a code and a web link; email + code sets the password and lifts a lockout', async () => {
    const user = await insertUser(suite.harness);
    await suite.harness.identity.dependencies.pool.query(
      `UPDATE users SET failed_login_attempts = 5, locked_until = now() + interval '10 minutes',
                        force_password_change = true WHERE id = $1`,
      [user.id],
    );
    const res = await post('/forgot-password', { email: user.email });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ email: user.email, purpose: 'reset_password', cooldown_seconds: 60 });
    const mail = await suite.sink.waitForMail(user.email);
    expect(mail.subject).toContain('reset your password');
    const { code, link } = extractSecrets(mail);
    expect(link.startsWith(`${WEB_URL}/reset-password?token=`)).toBe(true);

    // verify-email with purpose reset_password checks the code without consuming it.
    const checked = await post('/verify-email', { email: user.email, code, purpose: 'reset_password' });
    expect(checked.body).toMatchObject({ code: 0, data: { verified: true, email: user.email } });

    // A session from before the reset (the user's, or an attacker's).
    const earlier = await suite.harness.identity.dependencies.tokens.issue(user.id, 'access', 3_600);
    expect((await suite.harness.request('GET', '/users/me', { token: earlier.token })).status).toBe(200);
    const reset = await post('/reset-password', {
      email: user.email,
      code,
      new_password: 'Brand-new-pass-2',
    });
    expect(reset.status).toBe(200);
    // The reset ends every earlier token at once.
    const ended = await suite.harness.request('GET', '/users/me', { token: earlier.token });
    expect([ended.status, ended.body.code]).toEqual([401, 2001]);
    expect(reset.body).toMatchObject({ code: 0, data: { password_reset: true, email: user.email } });
    const row = await userRow(user.id);
    expect(row.failed_login_attempts).toBe(0);
    expect(row.locked_until).toBeNull();
    expect(row.force_password_change).toBe(false);
    expect(
      await suite.harness.identity.dependencies.passwords.verify('Brand-new-pass-2', row.password_hash),
    ).toBe(true);

    const reused = await post('/reset-password', { email: user.email, code, new_password: 'Another-pass-3' });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe(5005);
    const audit = await suite.harness.identity.dependencies.pool.query(
      `SELECT action FROM audit_log WHERE target_id = $1 ORDER BY id`,
      [user.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['user.password_reset_requested', 'user.password_reset']);
  });

  it('the link token resets the password once and emits the notification events; a bad token gives 5005', async () => {
    const user = await insertUser(suite.harness);
    const capture = await captureEvents(suite.harness.identity.dependencies.kafka, 'verification', [
      Topics.NOTIFICATION_EVENTS,
    ]);
    const events = () =>
      capture.messages
        .map((m) => m.value as { type: string; user_id: string; scope: string; source_service: string })
        .filter((e) => e.user_id === user.id);
    await post('/send-verification', { email: user.email, purpose: 'reset_password' });
    const { token } = extractSecrets(await suite.sink.waitForMail(user.email));
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
    const user = await insertUser(suite.harness);
    await post('/forgot-password', { email: user.email });
    const { code } = extractSecrets(await suite.sink.waitForMail(user.email));
    const weak = await post('/reset-password', { email: user.email, code, new_password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe(1001);
    expect(weak.body.data.errors.new_password.length).toBeGreaterThanOrEqual(1);
    const ok = await post('/reset-password', { email: user.email, code, new_password: 'Long-enough-pass-6' });
    expect(ok.status).toBe(200);
  });

  it('an expired reset code gives 5005; a user deleted since the mail gives 400 / 4000', async () => {
    const expiredUser = await insertUser(suite.harness);
    await post('/forgot-password', { email: expiredUser.email });
    const expired = extractSecrets(await suite.sink.waitForMail(expiredUser.email));
    await suite.harness.identity.dependencies.pool.query(
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

    const gone = await insertUser(suite.harness);
    await post('/forgot-password', { email: gone.email });
    const { token } = extractSecrets(await suite.sink.waitForMail(gone.email));
    await suite.harness.identity.dependencies.pool.query(`DELETE FROM users WHERE id = $1`, [gone.id]);
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

describe('verification routes reject bad input with 422 / 1001 before reaching the service', () => {
  it('POST /forgot-password', async () => {
    await expect422('/forgot-password', {}, ['email']);
    await expect422('/forgot-password', { email: null }, ['email']);
    await expect422('/forgot-password', { email: 'nope' }, ['email']);
    await expect422('/forgot-password', { email, captcha_id: {} }, ['captcha_id']);
    await expect422('/forgot-password', { email, captcha_token: 't'.repeat(257) }, ['captcha_token']);
  });

  it('POST /reset-password: neither (email + code) nor token is 422, as are bad field types', async () => {
    await expect422('/reset-password', { new_password: 'Valid-pass-1' }, ['token']);
    await expect422('/reset-password', { email, new_password: 'Valid-pass-1' }, ['code']);
    await expect422('/reset-password', { code: '123456', new_password: 'Valid-pass-1' }, ['email']);
    await expect422('/reset-password', { token: 'abc' }, ['new_password']);
    await expect422('/reset-password', { token: 'abc', new_password: 12345678 }, ['new_password']);
    await expect422('/reset-password', { token: 'abc', new_password: 'x'.repeat(1025) }, ['new_password']);
    await expect422('/reset-password', { token: '', new_password: 'Valid-pass-1' }, ['token']);
    await expect422('/reset-password', { token: 't'.repeat(513), new_password: 'Valid-pass-1' }, ['token']);
    await expect422('/reset-password', { email, code: '12ab56', new_password: 'Valid-pass-1' }, ['code']);
    await expect422('/reset-password', { email: 'bad', code: '123456', new_password: 'Valid-pass-1' }, [
      'email',
    ]);
  });
});
