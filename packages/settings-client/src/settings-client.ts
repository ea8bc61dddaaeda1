import * as settingsV1 from '@platform/contracts/platform/identity/v1/settings';
import { createServiceClient, type OutgoingTrust, type ServiceClient } from '@platform/grpc';
import type { ConsumerHandle, KafkaClient } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { followSettingsChanges } from './settings-changes.js';

/** Effective site settings by the spec's names, secrets decrypted (identity's GetEffectiveSettings). */
export type EffectiveSettings = Readonly<Record<string, unknown>>;

export type IdentitySettingsClient = ServiceClient<typeof settingsV1.SettingsServiceService>;

export const DEFAULT_SETTINGS_TTL_MS = 5_000;

export interface SettingsClientOptions {
  /** A ready client for identity's SettingsService; or `address` + `trust` to build one. */
  identityClient?: IdentitySettingsClient;
  /** identity's gRPC address (`IDENTITY_GRPC_ADDR`). */
  address?: string;
  /** This service's outgoing trust (`createOutgoingTrust({ service, serviceSigningKey })`): its service token. */
  trust?: OutgoingTrust;
  /** When given, `start()` follows `settings.changed` and drops the cache on each event. */
  kafka?: KafkaClient;
  /** This service's name, for the consumer group (`<service>.settings-cache.<pod>`). */
  service?: string;
  logger: Logger;
  /** How long a read is reused; also the staleness bound when no event arrives. Default 5000. */
  ttlMs?: number;
  /** Only these settings (fewer secrets in memory); default every setting. */
  keys?: string[];
  /** Deadline of one GetEffectiveSettings call. Default 5000. */
  timeoutMs?: number;
  /** Epoch ms; tests move it to pass the TTL without waiting. */
  now?: () => number;
}

export interface SettingsClient {
  /**
   * The settings: the cached read while it is younger than the TTL and no `settings.changed`
   * arrived since, else a fresh GetEffectiveSettings (concurrent callers share one call). Rejects
   * with identity's error (503 `service_unavailable` when it cannot be reached): a value older
   * than the TTL is never served.
   */
  get(): Promise<EffectiveSettings>;
  /** Drops the cache; the next `get()` reads identity. */
  invalidate(): void;
  /**
   * Follows `settings.changed` (with `kafka`), retrying in the background while Kafka is
   * unreachable; resolves once the consumer has joined (at once without `kafka`, or on `stop()`).
   * Services need not wait for it: the TTL bounds staleness meanwhile.
   */
  start(): Promise<void>;
  /** Stops following events and closes the client this package built. */
  stop(): Promise<void>;
}

interface Cached {
  value: EffectiveSettings;
  expiresAt: number;
}

const RETRY_MAX_MS = 30_000;

/** The shared, cached reader of identity's site settings (README). */
export function createSettingsClient(options: SettingsClientOptions): SettingsClient {
  const ttlMs = options.ttlMs ?? DEFAULT_SETTINGS_TTL_MS;
  if (!Number.isFinite(ttlMs) || ttlMs < 0) throw new RangeError(`ttlMs must be >= 0, got ${ttlMs}`);
  const now = options.now ?? Date.now;
  const { logger } = options;
  const client = options.identityClient ?? buildClient(options);
  const ownsClient = options.identityClient === undefined;
  // Bumped by every invalidation: a read that started before it is neither cached nor shared with
  // later callers (it may predate the change).
  let generation = 0;
  // Hand-kept, not lru-cache: one value, single-flight reads and a generation that keeps a read
  // older than an invalidation out of the cache (lru-cache's fetch cannot tell that read apart).
  let cached: Cached | undefined;
  let inflight: { promise: Promise<EffectiveSettings>; generation: number } | undefined;

  const read = (): Promise<EffectiveSettings> => {
    const started = now();
    const readGeneration = generation;
    const promise = client
      .call('getEffectiveSettings', { keys: options.keys ?? [] }, { timeoutMs: options.timeoutMs ?? 5_000 })
      .then(
        ({ settings }) => {
          const value: EffectiveSettings = Object.freeze({ ...settings });
          // The TTL counts from the call's start: the value is at least that fresh.
          if (readGeneration === generation) cached = { value, expiresAt: started + ttlMs };
          return value;
        },
        (error: unknown) => {
          logger.warn({ err: error }, 'identity GetEffectiveSettings failed; no settings to serve');
          throw error;
        },
      )
      .finally(() => {
        if (inflight?.promise === promise) inflight = undefined;
      });
    inflight = { promise, generation: readGeneration };
    return promise;
  };

  const invalidate = () => {
    generation += 1;
    cached = undefined;
  };

  let stopped = false;
  let consumer: ConsumerHandle | undefined;
  let retry: NodeJS.Timeout | undefined;
  let started: Promise<void> | undefined;
  let settle: () => void = () => undefined;

  const follow = (kafka: KafkaClient) => {
    let delay = 1_000;
    const attempt = () => {
      if (stopped) return;
      const service = options.service ?? 'settings-client';
      followSettingsChanges(kafka, { service, logger, onChange: invalidate }).then(
        (handle) => {
          consumer = handle;
          if (stopped) void handle.stop();
          else void handle.ready.then(settle, () => undefined);
        },
        (error: unknown) => {
          logger.warn({ err: error, retry_in_ms: delay }, 'settings.changed consumer could not start');
          retry = setTimeout(attempt, delay);
          retry.unref();
          delay = Math.min(delay * 2, RETRY_MAX_MS);
        },
      );
    };
    attempt();
  };

  return {
    get() {
      if (cached && cached.expiresAt > now()) return Promise.resolve(cached.value);
      if (inflight && inflight.generation === generation) return inflight.promise;
      return read();
    },
    invalidate,
    start() {
      if (stopped) return Promise.resolve();
      if (!started) {
        started = new Promise<void>((resolve) => (settle = resolve));
        if (options.kafka) follow(options.kafka);
        else settle();
      }
      return started;
    },
    async stop() {
      stopped = true;
      settle();
      if (retry) clearTimeout(retry);
      await consumer?.stop();
      invalidate();
      if (ownsClient) client.close();
    },
  };
}

function buildClient(options: SettingsClientOptions): IdentitySettingsClient {
  if (!options.address || !options.trust) {
    throw new Error('createSettingsClient needs identityClient, or address and trust');
  }
  return createServiceClient(
    settingsV1.SettingsServiceService,
    'platform.identity.v1.SettingsService',
    options.address,
    { defaultTimeoutMs: options.timeoutMs ?? 5_000, credentials: options.trust.to('identity') },
  );
}
