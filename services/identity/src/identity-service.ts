import { SessionRegistry, TokenService } from '@platform/auth';
import { SecretBox, TASK_ARGS_PURPOSE } from '@platform/crypto';
import type { ServiceRegistration } from '@platform/grpc';
import { ensurePlatformTopicsInBackground, serviceTopics } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { OutboxRelay } from '@platform/outbox';
import { connectInfrastructure, DailyTask, startWhenKafkaIsReachable } from '@platform/runtime';
import { followSettingsChanges } from '@platform/settings-client';
import type { IdentityConfig } from './config.js';
import type { IdentityDependencies } from './deps.js';
import { SettingsStore } from './domain/settings/settings-store.js';
import { PasswordHasher } from './adapters/password-hasher.js';
import { identityGrpc } from './grpc/identity-grpc.js';
import { authGrpc } from './grpc/auth-grpc.js';
import { CaptchaStore } from './data/captcha-store.js';
import { captchaGrpc } from './grpc/captcha-grpc.js';
import { totpGrpc } from './grpc/totp-grpc.js';
import { settingsGrpc } from './grpc/settings-grpc.js';
import { rolesGrpc } from './grpc/roles-grpc.js';
import { adminUsersGrpc } from './grpc/admin-users-grpc.js';
import { teamsGrpc } from './grpc/teams-grpc.js';
import { verificationGrpc } from './grpc/verification-grpc.js';
import { ssoGrpc } from './grpc/sso-grpc.js';
import { OidcConfigurations } from './adapters/oidc-client.js';
import { directoryGrpc } from './grpc/directory-grpc.js';
import {
  checkPasswordExpiration,
  PASSWORD_EXPIRY_TASK,
} from './domain/passwords/check-password-expiration.js';

/** Its Postgres migrations (SQL is not compiled: src/, beside dist/ in the image). */
export const MIGRATIONS = new URL('../src/data/migrations', import.meta.url);

export interface StartedIdentity {
  dependencies: IdentityDependencies;
  services: ServiceRegistration[];
  stop(): Promise<void>;
}

/**
 * The identity service's composition root, separate from main.ts so tests can start the real
 * service in-process on their own database. Each area registers its gRPC service here.
 */
export async function startIdentity(
  config: IdentityConfig,
  logger: Logger,
  version: string,
): Promise<StartedIdentity> {
  const { close: closeInfrastructure, ...connections } = await connectInfrastructure(
    config,
    logger,
    'identity',
    MIGRATIONS,
    // The topics it produces to or consumes: checked at start with KAFKA_TOPIC_MODE=verify.
    serviceTopics('identity', { queues: config.QUEUE_TOPIC_PREFIX }),
  );
  const { pool, redis, kafka, producer } = connections;
  const secrets = new SecretBox(config.SECRET_KEY);
  const captchaStore = new CaptchaStore(redis);
  const dependencies: IdentityDependencies = {
    config,
    logger,
    ...connections,
    tokens: new TokenService(config.SECRET_KEY),
    sessions: new SessionRegistry(redis),
    secrets,
    taskSeal: new SecretBox(config.TASK_SEAL_KEY, TASK_ARGS_PURPOSE),
    settings: new SettingsStore(pool, secrets, undefined, config.MODEL_ENDPOINT_ALLOWLIST_MAX_ENTRIES),
    passwords: new PasswordHasher({ N: config.PASSWORD_HASH_N, r: 8, p: 1 }),
    captcha: captchaStore,
    version,
  };
  const services: ServiceRegistration[] = [
    identityGrpc(dependencies),
    authGrpc(dependencies),
    captchaGrpc(dependencies, captchaStore),
    totpGrpc(dependencies),
    settingsGrpc(dependencies),
    rolesGrpc(dependencies),
    adminUsersGrpc(dependencies),
    teamsGrpc(dependencies),
    verificationGrpc(dependencies),
    ssoGrpc(
      dependencies,
      new OidcConfigurations({ allowInsecure: dependencies.config.SSO_ALLOW_INSECURE_ISSUERS }),
    ),
    directoryGrpc(dependencies),
  ];
  // Every replica drops its own settings cache on `settings.changed` (the consumer other services'
  // settings clients use too), started in the background, retried while Kafka is unreachable, so
  // the service serves meanwhile; kafka.disconnect() stops it. Mails identity queues
  // (`email.send` on the default queue) are sent by the default queue's one worker fleet, the
  // notifications service.
  startWhenKafkaIsReachable(kafka, logger, 'settings cache consumer', () =>
    followSettingsChanges(kafka, {
      service: 'identity',
      logger,
      onChange: () => dependencies.settings.invalidate(),
    }),
  );
  // A fresh deployment needs no separate topic step; producers never auto-create topics.
  ensurePlatformTopicsInBackground(kafka, logger);
  // Relays events (domain/identity-events.ts) and mail tasks (queue-verification-mail.ts) from the outbox
  // table to Kafka, retrying while Kafka is down.
  const outbox = new OutboxRelay({ pool, producer, logger });
  await outbox.start();
  // Daily at PASSWORD_EXPIRY_CHECK_AT (default 08:00) server time, once per cluster (Redis lock).
  const passwordExpiry = new DailyTask({
    name: PASSWORD_EXPIRY_TASK,
    at: config.PASSWORD_EXPIRY_CHECK_AT,
    redis,
    lockPrefix: 'identity:lock:',
    logger,
    run: (now) => checkPasswordExpiration(dependencies, now),
  });
  passwordExpiry.start();
  return {
    dependencies,
    services,
    async stop() {
      passwordExpiry.stop();
      await outbox.stop();
      await closeInfrastructure();
    },
  };
}
