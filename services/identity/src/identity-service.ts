import { SessionRegistry, TokenService } from '@platform/auth';
import { SecretBox } from '@platform/crypto';
import type { ServiceRegistration } from '@platform/grpc';
import { ensurePlatformTopicsInBackground } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { OutboxRelay } from '@platform/outbox';
import { connectInfrastructure, startWhenKafkaIsReachable } from '@platform/runtime';
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
import { directoryGrpc } from './grpc/directory-grpc.js';
import { startEmailWorker } from './events/email-worker.js';
import { startSettingsCacheConsumer } from './events/settings-cache-consumer.js';

const MIGRATIONS = new URL('../src/data/migrations', import.meta.url);

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
    settings: new SettingsStore(pool, secrets),
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
    ssoGrpc(dependencies),
    directoryGrpc(dependencies),
  ];
  // Every replica drops its settings cache on `settings.changed`, and sends queued mails
  // (`email.send` on the default queue). Both start in the background, retried while Kafka is
  // unreachable, so the service serves meanwhile; kafka.disconnect() stops them.
  startWhenKafkaIsReachable(kafka, logger, 'settings cache consumer', () =>
    startSettingsCacheConsumer(dependencies),
  );
  startWhenKafkaIsReachable(kafka, logger, 'email worker', () => startEmailWorker(dependencies));
  // A fresh deployment needs no separate topic step; producers never auto-create topics.
  ensurePlatformTopicsInBackground(kafka, logger);
  // Relays events (publish-events.ts) and mail tasks (queue-verification-mail.ts) from the outbox
  // table to Kafka, retrying while Kafka is down.
  const outbox = new OutboxRelay({ pool, producer, logger });
  await outbox.start();
  return {
    dependencies,
    services,
    async stop() {
      await outbox.stop();
      await closeInfrastructure();
    },
  };
}
