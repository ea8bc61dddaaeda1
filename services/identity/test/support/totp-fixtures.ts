import { generate } from 'otplib';
import type { IdentityHarness } from './harness.js';
import { registerActiveAccount, type RegisteredAccount } from './auth-accounts.js';

export interface TotpAccount extends RegisteredAccount {
  /** A full access token issued directly (the TOTP routes do not care how it was obtained). */
  token: string;
}

/** An active account and an access token for it. */
export async function accountWithToken(harness: IdentityHarness, prefix = 'totp'): Promise<TotpAccount> {
  const account = await registerActiveAccount(harness, prefix);
  const { token } = await harness.identity.dependencies.tokens.issue(account.id, 'access', 3_600);
  return { ...account, token };
}

/** The authenticator code for `secret`, `stepOffset` steps from now (±1 is accepted). */
export function totpCode(secret: string, stepOffset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepOffset * 30 });
}

/**
 * Forgets which time steps the user already used, so a test can use a fresh code of the current
 * step again (the service refuses a step twice: replay protection).
 */
export async function forgetUsedSteps(harness: IdentityHarness, userId: string): Promise<void> {
  await harness.identity.dependencies.redis.del(`totp:last-step:${userId}`);
}

/** Setup + enable through the gateway; returns the secret and the backup codes shown once. */
export async function enableTotpFor(
  harness: IdentityHarness,
  account: TotpAccount,
): Promise<{ secret: string; backupCodes: string[] }> {
  const setup = await harness.request('POST', '/totp/setup', { token: account.token });
  if (setup.body.code !== 0) throw new Error(`setup failed: ${JSON.stringify(setup.body)}`);
  const secret: string = setup.body.data.secret;
  const enable = await harness.request('POST', '/totp/enable', {
    token: account.token,
    json: { code: await totpCode(secret) },
  });
  if (enable.body.code !== 0) throw new Error(`enable failed: ${JSON.stringify(enable.body)}`);
  await forgetUsedSteps(harness, account.id);
  return { secret, backupCodes: enable.body.data.backup_codes };
}
