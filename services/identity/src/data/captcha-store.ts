import { constantTimeEqual, sha256Hex } from '@platform/crypto';
import type { Redis } from '@platform/redis';
import type { CaptchaVerifier } from '../domain/auth/captcha-port.js';
import type { OptionBox } from '../domain/captcha/captcha-contract.js';

/** Both a challenge and the proof it earns live this long (spec: 300 s). */
export const CAPTCHA_TTL_SECONDS = 300;

/** What the server keeps of an issued challenge (the image itself is not kept). */
export interface StoredChallenge {
  /** sha256 of the challenge JSON text as issued, to check the verbatim echo. */
  digest: string;
  target: string;
  /** Where the target was drawn: the pointer trace must end inside it. */
  targetBox?: OptionBox;
  /** Epoch ms, for the server-side elapsed check. */
  issuedAt: number;
}

const challengeKey = (id: string) => `captcha:challenge:${id}`;
const proofKey = (id: string) => `captcha:proof:${id}`;

/** Ids are base64url tokens we issued; anything else cannot name a key. */
const ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * Captcha state in Redis: challenges and proofs expire on their own (300 s) and are read with
 * GETDEL, so each is usable exactly once even under concurrent requests. Proofs are stored as a
 * sha256 digest: a Redis dump does not reveal a usable token.
 */
export class CaptchaStore implements CaptchaVerifier {
  constructor(private readonly redis: Redis) {}

  async saveChallenge(id: string, challenge: StoredChallenge): Promise<void> {
    await this.redis.set(challengeKey(id), JSON.stringify(challenge), 'EX', CAPTCHA_TTL_SECONDS);
  }

  /** The challenge, removed in the same step (a click consumes it whatever the outcome). */
  async takeChallenge(id: string): Promise<StoredChallenge | null> {
    if (!ID_PATTERN.test(id)) return null;
    const raw = await this.redis.getdel(challengeKey(id));
    return raw ? (JSON.parse(raw) as StoredChallenge) : null;
  }

  async saveProof(id: string, token: string): Promise<void> {
    await this.redis.set(proofKey(id), sha256Hex(token), 'EX', CAPTCHA_TTL_SECONDS);
  }

  /** The CaptchaVerifier port: a proof verifies at most once, and is consumed by any attempt. */
  async consume(captchaId: string, token: string): Promise<boolean> {
    if (!ID_PATTERN.test(captchaId) || token === '') return false;
    const digest = await this.redis.getdel(proofKey(captchaId));
    return digest !== null && constantTimeEqual(digest, sha256Hex(token));
  }
}
