import { describe, expect, it } from 'vitest';
import { useIdentityHarness } from './support/suite.js';
import { accountWithToken, enableTotpFor, totpCode } from './support/totp-fixtures.js';

/**
 * The TOTP throttle under parallel bursts (issue 7): every code check takes its place in the
 * per-user budget atomically before the code is evaluated, so at most 5 codes of a burst are
 * evaluated (4 × 5311, the fifth locks: 5312) and the rest are refused with 5312 unevaluated.
 */
const harness = useIdentityHarness();
const deps = () => harness.identity.dependencies;

const BURST = 20;

async function enrolled() {
  const account = await accountWithToken(harness, 'tburst');
  const enabled = await enableTotpFor(harness, account);
  return { ...account, ...enabled };
}

function tally(codes: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const code of codes) counts[code] = (counts[code] ?? 0) + 1;
  return counts;
}

/** 20 wrong codes at once; returns the answer codes after checking the shared expectations. */
async function burst(label: string, send: (code: string) => Promise<{ body: { code: number } }>) {
  const results = await Promise.all(
    Array.from({ length: BURST }, (_, i) => send(String(100_000 + i * 7).padStart(6, '0'))),
  );
  const codes = results.map((r) => r.body.code);
  expect(tally(codes), `${label}: answers to ${BURST} wrong codes`).toEqual({ 5311: 4, 5312: BURST - 4 });
  return codes;
}

describe('TOTP code checks under a parallel burst of wrong codes', () => {
  it(`/login/verify-totp: ${BURST} wrong codes on one challenge, at most 5 evaluated, then locked`, async () => {
    const account = await enrolled();
    const { token: temp } = await deps().tokens.issue(account.id, 'totp_challenge', 300);
    await burst('verify-totp', (code) =>
      harness.request('POST', '/login/verify-totp', { form: { temp_token: temp, code } }),
    );
    // Locked: the right code is refused too.
    const right = await harness.request('POST', '/login/verify-totp', {
      form: { temp_token: temp, code: await totpCode(account.secret) },
    });
    expect([right.body.code, right.body.data.seconds > 890]).toEqual([5312, true]);
  });

  it(`/totp/disable: ${BURST} wrong codes at once, at most 5 evaluated, TOTP stays on`, async () => {
    const account = await enrolled();
    await burst('totp/disable', (code) =>
      harness.request('POST', '/totp/disable', { token: account.token, json: { code } }),
    );
    const status = await harness.request('GET', '/totp/status', { token: account.token });
    expect(status.body.data.enabled).toBe(true);
  });

  it(`/totp/regenerate-backup-codes: ${BURST} wrong codes at once, at most 5 evaluated`, async () => {
    const account = await enrolled();
    await burst('regenerate-backup-codes', (code) =>
      harness.request('POST', '/totp/regenerate-backup-codes', { token: account.token, json: { code } }),
    );
    // The backup codes shown at enrolment are still the valid ones (nothing was regenerated).
    const status = await harness.request('GET', '/totp/status', { token: account.token });
    expect(status.body.data.backup_codes_remaining).toBe(account.backupCodes.length);
  });

  it('a right code in a small burst frees its place; the wrong ones keep theirs', async () => {
    const account = await enrolled();
    const { token: temp } = await deps().tokens.issue(account.id, 'totp_challenge', 300);
    const right = await totpCode(account.secret);
    const results = await Promise.all([
      harness.request('POST', '/login/verify-totp', { form: { temp_token: temp, code: '000001' } }),
      harness.request('POST', '/login/verify-totp', { form: { temp_token: temp, code: right } }),
      harness.request('POST', '/login/verify-totp', { form: { temp_token: temp, code: '000002' } }),
    ]);
    expect(results.map((r) => r.body.code).sort()).toEqual([0, 5311, 5311]);
    const left = Number((await deps().redis.get(`totp:failures:${account.id}`)) ?? '0');
    expect(left).toBeLessThanOrEqual(2);
  });
});
