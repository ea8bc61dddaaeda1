import { randomUUID } from 'node:crypto';
import { runConsumer, type ConsumedMessage, type ConsumerHandle } from '@platform/kafka';
import { afterAll, beforeAll } from 'vitest';
import { ensureFirstUser } from './auth-accounts.js';
import { startIdentityHarness, type IdentityHarness } from './harness.js';

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
    get identity() {
      return live().identity;
    },
    get gateway() {
      return live().gateway;
    },
    request: (method, path, options) => live().request(method, path, options),
    setSettings: (changes) => live().setSettings(changes),
    startGatewayReplica: () => live().startGatewayReplica(),
    stop: () => live().stop(),
  };
}

/** Polls `probe` every 50 ms until it gives a value (not `undefined`); fails after `timeoutMs`. */
export async function waitUntil<T>(
  probe: () => T | undefined,
  timeoutMs = 15_000,
  failure = 'timed out waiting',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface EventCapture {
  /** Every message received since the consumer joined (or since `clear`). */
  readonly messages: ConsumedMessage[];
  clear(): void;
  /** The first message `match` accepts, waiting up to 15 s for it. */
  waitFor(match: (message: ConsumedMessage) => boolean, failure: string): Promise<ConsumedMessage>;
  stop(): Promise<void>;
}

/**
 * A fresh consumer group on `topics` that starts at their end once it has joined: only the events
 * this test file causes. Resolves when the consumer is ready.
 */
export async function captureEvents(
  harness: IdentityHarness,
  name: string,
  topics: string[],
): Promise<EventCapture> {
  const messages: ConsumedMessage[] = [];
  const consumer: ConsumerHandle = await runConsumer(harness.identity.dependencies.kafka, {
    groupId: `test.${name}.${randomUUID()}`,
    topics,
    fromBeginning: false,
    handler: async (message) => {
      messages.push(message);
    },
  });
  await consumer.ready;
  return {
    messages,
    clear: () => {
      messages.length = 0;
    },
    waitFor: (match, failure) => waitUntil(() => messages.find(match), 15_000, failure),
    stop: () => consumer.stop(),
  };
}
