import type { AccountUser } from '@platform/contracts/platform/identity/v1/auth';
import type { AccountRow } from '../../data/auth-account-repository.js';

/** The account fields registration and `/users/me` return (never hashes or lockout state). */
export function toAccountUser(row: AccountRow): AccountUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    locale: row.locale ?? '',
    is_active: row.is_active,
    email_verified: row.email_verified,
    approval_status: row.approval_status,
    created_at: row.created_at.toISOString(),
  };
}
