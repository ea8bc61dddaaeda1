import { captureEvents as captureOn, type EventCapture } from '@platform/testing';
import { afterAll, beforeAll } from 'vitest';
import { ensureFirstUser } from './auth-accounts.js';
import { startIdentityHarness, type IdentityHarness } from './harness.js';

export type { EventCapture };

export interface SuiteOptions {
  /** Register the database's very first user up front, so later sign-ups are "later users". */
  firstUser?: boolean;
  /** Extra environment for the identity service. */
  env?: Record<string, string>;
}

/**
 * Starts the identity harness before the file's tests (and stops it after them). The returned
 * object forwards to the running harness, so it can be held in a `const` at the top of a file;
 * hooks a file registers later run after the harness is up (and before it stops).
 */
export function useIdentityHarness(options: SuiteOptions = {}): IdentityHarness {
  let running: IdentityHarness | undefined;
  beforeAll(async () => {
    running = await startIdentityHarness(options.env);
    if (options.firstUser) await ensureFirstUser(running);
  });
  afterAll(async () => {
    await running?.stop();
  });
  const live = (): IdentityHarness => {
    if (!running) throw new Error('the identity harness is not running (use it inside tests and hooks)');
    return running;
  };
  return {
    get baseUrl() {
      return live().baseUrl;
    },
    get grpcAddress() {
      return live().grpcAddress;
    },
    get identity() {
      return live().identity;
    },
    get gateway() {
      return live().gateway;
    },
    request: (method, path, options) => live().request(method, path, options),
    setSettings: (changes) => live().setSettings(changes),
    startGatewayReplica: () => live().startGatewayReplica(),
    startMailWorker: () => live().startMailWorker(),
    stop: () => live().stop(),
  };
}

export { waitUntil } from '@platform/testing';

/** Event capture on the harness's Kafka client (see @platform/testing `captureEvents`). */
export function captureEvents(
  harness: IdentityHarness,
  name: string,
  topics: string[],
): Promise<EventCapture> {
  return captureOn(harness.identity.dependencies.kafka, name, topics);
}
