import type { AccountRow } from '../../data/auth-account-repository.js';

/** The account fields registration and `/users/me` return (never hashes or lockout state). */
export interface AccountView {
  id: string;
  username: string;
  email: string;
  locale: string;
  is_active: boolean;
  email_verified: boolean;
  approval_status: AccountRow['approval_status'];
  created_at: string;
}

export function toAccountUser(row: AccountRow): AccountView {
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
