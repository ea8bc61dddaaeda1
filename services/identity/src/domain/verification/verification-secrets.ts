import { randomInt } from 'node:crypto';
import { constantTimeEqual, randomToken, sha256Hex } from '@platform/crypto';
import type { VerificationPurpose } from '../../data/verification-repository.js';

/** How long a mailed code and its link stay valid. */
export const CODE_TTL_MINUTES = 15;
/** Wrong codes allowed per mailed code; the fifth wrong one consumes it. */
export const MAX_CODE_ATTEMPTS = 5;

/** A fresh 6-digit code (leading zeros kept) and a 256-bit link token, both only ever mailed. */
export function newVerificationSecrets(): { code: string; linkToken: string } {
  return { code: String(randomInt(0, 1_000_000)).padStart(6, '0'), linkToken: randomToken(32) };
}

/**
 * SHA-256 of the code bound to its address and purpose, so equal codes of different users never
 * share a hash. A 6-digit code is still guessable offline from a leaked hash; what protects it is
 * the 15-minute lifetime and the 5-attempt limit online.
 */
export function hashCode(email: string, purpose: VerificationPurpose, code: string): string {
  return sha256Hex(`${purpose}:${email.toLowerCase()}:${code}`);
}

export function hashLinkToken(token: string): string {
  return sha256Hex(token);
}

export function codeMatches(
  storedHash: string,
  email: string,
  purpose: VerificationPurpose,
  code: string,
): boolean {
  return constantTimeEqual(storedHash, hashCode(email, purpose, code));
}
