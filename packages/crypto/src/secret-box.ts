import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from './derive-key.js';

const VERSION = 'v1';

/**
 * Encrypts secrets at rest (SMTP password, webhook secrets, model API keys, TOTP secrets) with
 * AES-256-GCM under a key derived from SECRET_KEY. Ciphertext format: `v1:<iv>:<tag>:<data>` in
 * base64url, so the version can change without guessing.
 */
/** Key-derivation purpose of sealed work-queue task args (`TASK_SEAL_KEY`, packages/config). */
export const TASK_ARGS_PURPOSE = 'queue-task-args';

export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string, purpose = 'secrets-at-rest') {
    this.key = deriveKey(secretKey, purpose);
  }

  /** Whether `value` has the ciphertext format (it may still fail to decrypt under another key). */
  static isCiphertext(value: string): boolean {
    return /^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]*$/.test(value);
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv.toString('base64url'), tag.toString('base64url'), data.toString('base64url')].join(
      ':',
    );
  }

  decrypt(ciphertext: string): string {
    const [version, iv, tag, data] = ciphertext.split(':');
    if (version !== VERSION || !iv || !tag || data === undefined) {
      throw new Error('SecretBox: unrecognized ciphertext format');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
