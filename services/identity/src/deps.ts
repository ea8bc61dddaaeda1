import type { SessionRegistry, TokenService } from '@platform/auth';
import type { SecretBox } from '@platform/crypto';
import type { Pool } from '@platform/db';
import type { KafkaClient, Producer } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import type { Redis } from '@platform/redis';
import type { IdentityConfig } from './config.js';
import type { CaptchaVerifier } from './domain/auth/captcha-port.js';
import type { PasswordHasher } from './adapters/password-hasher.js';
import type { SettingsStore } from './domain/settings/settings-store.js';

// Kept apart from the composition root (identity-service.ts) so use cases can name their
// dependencies without importing the file that imports them: no import cycles.
/** What every identity use case may depend on, built once at start. */
export interface IdentityDependencies {
  config: IdentityConfig;
  logger: Logger;
  pool: Pool;
  redis: Redis;
  kafka: KafkaClient;
  producer: Producer;
  tokens: TokenService;
  sessions: SessionRegistry;
  secrets: SecretBox;
  /** Seals work-queue task args that carry secrets (TASK_SEAL_KEY, not SECRET_KEY). */
  taskSeal: SecretBox;
  settings: SettingsStore;
  /** scrypt password hashing (auth area); cost from PASSWORD_HASH_N. */
  passwords: PasswordHasher;
  /** Captcha proof check (captcha area); when absent every required captcha is invalid (5303). */
  captcha?: CaptchaVerifier;
  version: string;
}
