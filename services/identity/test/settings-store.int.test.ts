import { randomUUID } from 'node:crypto';
import { Topics } from '@platform/kafka';
import { describe, expect, it, vi } from 'vitest';
import { identityClientsAs } from './support/internal-clients.js';
import { useIdentityHarness, waitUntil as waitFor } from './support/suite.js';

const harness = useIdentityHarness();

describe('site settings store', () => {
  it('applies the spec defaults, with session_timeout_days seeded at 30 and falling back to 7', async () => {
    const { settings, pool } = harness.identity.dependencies;
    const current = await settings.current();
    expect(current).toMatchObject({
      session_timeout_days: 30,
      single_session: false,
      enable_captcha: false,
      max_login_attempts: 5,
      lockout_duration_minutes: 15,
      require_totp: false,
      email_verification: true,
      require_approval: true,
      password_expiration_warning_days: 7,
      smtp_enabled: false,
    });
    await pool.query(`DELETE FROM site_settings WHERE key = 'session_timeout_days'`);
    settings.invalidate();
    expect((await settings.current()).session_timeout_days).toBe(7);
    await settings.update({ session_timeout_days: 30 });
  });

  it('encrypts secrets at rest and returns them decrypted to the service', async () => {
    const { settings, pool } = harness.identity.dependencies;
    await settings.update({ smtp_password: 's3cret-pw', smtp_host: 'mail.example.com' });
    const { rows } = await pool.query(
      `SELECT key, value FROM site_settings WHERE key IN ('smtp_password', 'smtp_host') ORDER BY key`,
    );
    expect(rows[0].value).toBe('mail.example.com');
    expect(JSON.stringify(rows[1].value)).not.toContain('s3cret-pw');
    expect((await settings.current()).smtp_password).toBe('s3cret-pw');
  });

  it('rejects unknown names and bad values with 1001 per field, writing nothing', async () => {
    const { settings } = harness.identity.dependencies;
    const error = await settings
      .update({ max_login_attempts: 0, nope: true, smtp_encryption: 'starttls', single_session: true })
      .catch((e) => e);
    expect(error).toMatchObject({ code: 1001 });
    expect(Object.keys(error.data.errors).sort()).toEqual(['max_login_attempts', 'nope', 'smtp_encryption']);
    expect((await settings.current()).single_session).toBe(false);
  });
});

describe('settings cache across replicas and the internal read', () => {
  it('drops the local cache when any replica publishes settings.changed', async () => {
    const { settings, producer } = harness.identity.dependencies;
    const invalidate = vi.spyOn(settings, 'invalidate');
    try {
      await producer.publish(Topics.DOMAIN_EVENTS, {
        key: 'site_settings',
        type: 'settings.changed',
        value: { id: randomUUID(), type: 'settings.changed', source_service: 'identity', data: { keys: [] } },
      });
      await waitFor(() => (invalidate.mock.calls.length > 0 ? true : undefined));
    } finally {
      invalidate.mockRestore();
    }
  });

  it('serves GetEffectiveSettings over gRPC only, with secrets decrypted', async () => {
    await harness.setSettings({ smtp_username: 'mailer', smtp_password: 'pw-123' });
    const notifications = identityClientsAs(harness.grpcAddress, { service: 'notifications' });
    const all = await notifications.settings.call('getEffectiveSettings', { keys: [] });
    notifications.close();
    expect(all.settings).toMatchObject({ smtp_username: 'mailer', smtp_password: 'pw-123', smtp_port: 587 });
    expect(all.settings).not.toHaveProperty('smtp_password_set');
    const openapi = await fetch(`${harness.baseUrl}/api/v1/openapi.json`).then((r) => r.text());
    expect(openapi).not.toMatch(/effective/i);
    for (const path of [
      '/admin/site-settings',
      '/admin/roles/{id}',
      '/admin/users/{id}/roles',
      '/teams/{id}/leave',
    ]) {
      expect(openapi).toContain(path);
    }
  });
});
