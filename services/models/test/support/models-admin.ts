import { randomUUID } from 'node:crypto';
import type { IdentityUser } from '@platform/testing';
import type { GrantsHarness } from './grants-harness.js';

/** The allowlist as the catalog ships it (identity's default). */
export async function readAllowlist(harness: GrantsHarness, admin: IdentityUser): Promise<string[]> {
  const res = await harness.request('GET', '/admin/site-settings', { token: admin.token });
  return res.body.data.model_endpoint_allowlist as string[];
}

/** Replaces identity's `model_endpoint_allowlist` through the gateway. */
export async function setAllowlist(harness: GrantsHarness, admin: IdentityUser, origins: string[]) {
  const res = await harness.request('PUT', '/admin/site-settings', {
    token: admin.token,
    json: { model_endpoint_allowlist: origins },
  });
  if (res.body.code !== 0) throw new Error(`allowlist not saved: ${JSON.stringify(res.body)}`);
}

/** A user whose only role grants exactly `permissions` (a role created through the gateway). */
export async function userWith(
  harness: GrantsHarness,
  admin: IdentityUser,
  permissions: string[],
): Promise<IdentityUser> {
  const name = `models-${randomUUID().slice(0, 8)}`;
  const role = await harness.request('POST', '/admin/roles', {
    token: admin.token,
    json: { name, permissions },
  });
  if (role.body.code !== 0) throw new Error(`role not created: ${JSON.stringify(role.body)}`);
  return harness.createUser({ roles: [name], name });
}

export function createModel(harness: GrantsHarness, token: string, json: Record<string, unknown>) {
  return harness.request('POST', '/admin/models', {
    token,
    json: {
      name: `m-${randomUUID().slice(0, 8)}`,
      provider: 'openai',
      model_id: 'gpt-4o-mini',
      model_type: 'chat',
      ...json,
    },
  });
}
