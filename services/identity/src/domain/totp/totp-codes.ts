import { randomInt } from 'node:crypto';
import { sha256Hex } from '@platform/crypto';
import { generateSecret, generateURI, verify } from 'otplib';

/** Authenticator-app defaults (RFC 6238): SHA-1, 6 digits, 30 s step; ±1 step accepted. */
const PERIOD_SECONDS = 30;
const TOLERANCE_SECONDS = PERIOD_SECONDS;
export const OTP_ISSUER = 'Agent Platform';
export const BACKUP_CODE_COUNT = 10;

/** Lower-case letters and digits without look-alikes (no 0/o, 1/l/i). */
const BACKUP_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const BACKUP_HALF = 5;

export const SIX_DIGITS = /^\d{6}$/;

export function newTotpSecret(): string {
  return generateSecret();
}

export function otpauthUrl(secret: string, account: string): string {
  return generateURI({ issuer: OTP_ISSUER, label: account, secret, period: PERIOD_SECONDS });
}

/**
 * The time step the code belongs to when it is valid at `epoch` (Unix seconds, default now) within
 * ±1 step, else null. `afterStep` rejects codes of a step already used (RFC 6238 §5.2 replay
 * protection).
 */
export async function matchTotp(
  secret: string,
  code: string,
  afterStep?: number,
  epoch?: number,
): Promise<number | null> {
  if (!SIX_DIGITS.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    period: PERIOD_SECONDS,
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === undefined ? {} : { afterTimeStep: afterStep }),
    ...(epoch === undefined ? {} : { epoch }),
  });
  // The functional API types HOTP and TOTP results together; a TOTP result carries the step.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

function randomChunk(): string {
  let chunk = '';
  for (let i = 0; i < BACKUP_HALF; i++) chunk += BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)];
  return chunk;
}

/** Ten codes like `k7m2q-xv9ra` (~49 bits each), shown to the user once. */
export function newBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, () => `${randomChunk()}-${randomChunk()}`);
}

/** Users type codes with or without the dash, in any case. */
export function normalizeBackupCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** Stored form: salted with the user id so equal codes of two users never share a hash. */
export function backupCodeHash(userId: string, code: string): string {
  return sha256Hex(`totp-backup:${userId}:${normalizeBackupCode(code)}`);
}
