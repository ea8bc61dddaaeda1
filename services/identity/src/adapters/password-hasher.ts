import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost parameters; N is the CPU/memory cost (a power of two), memory ≈ 128 · N · r bytes. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };

const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

function maxmem(params: ScryptParams): number {
  // Node refuses scrypt above maxmem (32 MiB default); allow the parameters' need plus headroom.
  return 256 * params.N * params.r + 1024 * 1024;
}

interface ParsedHash extends ScryptParams {
  salt: Buffer;
  hash: Buffer;
}

/** `scrypt$N$r$p$salt$hash` (salt and hash base64url) → parts; undefined when not this format. */
function parse(encoded: string): ParsedHash | undefined {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => n !== undefined && Number.isInteger(n) && n > 0)) return undefined;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const hash = Buffer.from(parts[5]!, 'base64url');
  if (salt.length === 0 || hash.length === 0) return undefined;
  return { N: N!, r: r!, p: p!, salt, hash };
}

/**
 * Password hashing with node:crypto scrypt (memory-hard) in a versioned, self-describing format
 * `scrypt$N$r$p$salt$hash`, so the cost can be raised later: hashes made with older parameters
 * still verify, and `needsRehash` tells the login to store a fresh hash.
 */
export class PasswordHasher {
  private dummyHash: Promise<string> | undefined;

  constructor(readonly params: ScryptParams = DEFAULT_SCRYPT_PARAMS) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const { N, r, p } = this.params;
    const key = await scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: maxmem(this.params) });
    return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  /** Constant-time comparison; a malformed or missing hash never verifies. */
  async verify(password: string, encoded: string | null | undefined): Promise<boolean> {
    const parsed = encoded ? parse(encoded) : undefined;
    if (!parsed) {
      // Same work as a real check so a missing hash is not visible in the timing.
      await this.verify(password, await this.dummy());
      return false;
    }
    const key = await scrypt(password, parsed.salt, parsed.hash.length, {
      N: parsed.N,
      r: parsed.r,
      p: parsed.p,
      maxmem: maxmem(parsed),
    });
    return timingSafeEqual(key, parsed.hash);
  }

  /** True when the stored hash was made with other parameters than the current ones. */
  needsRehash(encoded: string): boolean {
    const parsed = parse(encoded);
    return (
      !parsed ||
      parsed.N !== this.params.N ||
      parsed.r !== this.params.r ||
      parsed.p !== this.params.p ||
      parsed.hash.length !== KEY_LENGTH
    );
  }

  /** Burns one verification's worth of time (unknown users must not answer faster). */
  async verifyDummy(password: string): Promise<void> {
    await this.verify(password, await this.dummy());
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= this.hash(randomBytes(16).toString('hex'));
    return this.dummyHash;
  }
}
