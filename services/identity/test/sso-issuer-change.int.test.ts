import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestOidcProvider, type TestOidcProvider } from './support/oidc-test-provider.js';
import { createTestUser } from './support/rbac-users.js';
import { createProvider, startSsoStack, WEB_URL, type SsoStack } from './support/sso-fixtures.js';

/**
 * Issue 7: a provider whose issuer changes is another identity provider. Its account links (the
 * old issuer's subjects) and its stored client secret are dropped, in the same transaction as the
 * change, so a subject at the new issuer cannot sign into an account linked at the old one, and the
 * old secret is never sent to the new issuer.
 */
let stack: SsoStack;
let other: TestOidcProvider;

beforeAll(async () => {
  stack = await startSsoStack(['moved', 'kept', 'blocker']);
  other = await startTestOidcProvider(WEB_URL, ['moved', 'kept']);
}, 60_000);

afterAll(async () => {
  await other?.stop();
  await stack?.stop();
});

async function linkCount(providerId: string): Promise<number> {
  const { rowCount } = await stack.harness.identity.dependencies.pool.query(
    'SELECT 1 FROM sso_connections WHERE provider_id = $1',
    [providerId],
  );
  return rowCount ?? 0;
}

async function storedSecret(providerId: string): Promise<string> {
  const { rows } = await stack.harness.identity.dependencies.pool.query(
    'SELECT client_secret_enc FROM sso_providers WHERE id = $1',
    [providerId],
  );
  return rows[0].client_secret_enc;
}

async function linkUsers(providerId: string, n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    const user = await createTestUser(stack.harness, { name: `linked${i}` });
    await stack.harness.identity.dependencies.pool.query(
      'INSERT INTO sso_connections (user_id, provider_id, subject) VALUES ($1, $2, $3)',
      [user.id, providerId, `subject-${providerId}-${i}`],
    );
  }
}

const put = (id: string, json: unknown) =>
  stack.harness.request('PUT', `/admin/sso/providers/${id}`, { token: stack.admin.token, json });

describe('SSO provider issuer change', () => {
  it('drops the account links and the stored secret, and switches the provider off until a new secret is set', async () => {
    const created = await createProvider(stack, 'moved');
    const id = created.body.data.id;
    await linkUsers(id, 3);
    expect(await linkCount(id)).toBe(3);

    // Other changes keep both.
    expect((await put(id, { display_name: 'Renamed' })).body.code).toBe(0);
    expect(await linkCount(id)).toBe(3);
    expect(await storedSecret(id)).not.toBe('');

    const moved = await put(id, { issuer: other.issuer });
    expect(moved.body.code).toBe(0);
    expect(moved.body.data).toMatchObject({ issuer: other.issuer, client_secret_set: false, enabled: false });
    expect(await linkCount(id)).toBe(0);
    expect(await storedSecret(id)).toBe('');
    const { rows } = await stack.harness.identity.dependencies.pool.query(
      `SELECT details FROM audit_log WHERE action = 'sso_provider.update' AND target_id = $1
        ORDER BY created_at DESC LIMIT 1`,
      [id],
    );
    expect(rows[0].details).toMatchObject({ issuer_changed: true, links_dropped: 3, secret_dropped: true });

    // The provider can be completed with the new issuer's secret.
    const completed = await put(id, { client_secret: other.clientSecret, enabled: true });
    expect(completed.body.data).toMatchObject({ client_secret_set: true, enabled: true });
  });

  it('a new secret sent with the new issuer is kept; links still go', async () => {
    const created = await createProvider(stack, 'kept');
    const id = created.body.data.id;
    await linkUsers(id, 2);
    const moved = await put(id, { issuer: other.issuer, client_secret: other.clientSecret });
    expect(moved.body.data).toMatchObject({ client_secret_set: true, enabled: true });
    expect(await linkCount(id)).toBe(0);
    expect(stack.harness.identity.dependencies.secrets.decrypt(await storedSecret(id))).toBe(
      other.clientSecret,
    );
  });

  it('is one transaction: a change that fails (name taken) keeps the links and the secret', async () => {
    const blocker = await createProvider(stack, 'blocker');
    expect(blocker.body.code).toBe(0);
    const created = await createProvider(stack, `atomic${Date.now() % 100000}`);
    const id = created.body.data.id;
    await linkUsers(id, 2);
    const secretBefore = await storedSecret(id);
    const failed = await put(id, { issuer: other.issuer, name: 'blocker' });
    expect(failed.body.code).toBe(6305);
    expect(await linkCount(id)).toBe(2);
    expect(await storedSecret(id)).toBe(secretBefore);
  });
});
