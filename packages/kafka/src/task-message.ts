import { randomUUID } from 'node:crypto';
import { requestContext } from '@platform/logger';
import { NonRetryableError } from './errors.js';
import { queueTopic, type QueueName } from './topics.js';

/** One task on a work queue; mirrors the proto `platform.events.v1.TaskMessage` (JSON, snake_case). */
export interface TaskMessage<A extends object = Record<string, unknown>> {
  id: string;
  task: string;
  /** Empty (`{}`) when the args travel sealed in `sealed_args`. */
  args: A;
  /** ISO-8601 timestamp. */
  enqueued_at: string;
  request_id: string;
  /** The args as JSON encrypted with the at-rest key, for tasks that carry secrets (codes, links). */
  sealed_args?: string;
}

/**
 * Encrypts and decrypts sealed task args; `SecretBox` from `@platform/crypto` (keyed from
 * SECRET_KEY) fits. An interface so the bus package needs no crypto dependency.
 */
export interface TaskArgsCipher {
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
}

export interface EnqueueOptions {
  /** Task id, the idempotency key: enqueueing the same id twice runs the task once. Default a UUID. */
  id?: string;
  /** Partitioning key, for tasks that must run in order; default the task id. */
  key?: string;
  /**
   * Seals the args: the message (and any outbox row holding it) then carries only ciphertext, and
   * only a worker holding the same key can read them.
   */
  seal?: TaskArgsCipher;
}

/** A task ready to publish: where, under which key and id, and the message itself. */
export interface OutgoingTask<A extends object> {
  topic: string;
  key: string;
  id: string;
  type: string;
  value: TaskMessage<A>;
}

/**
 * Builds the message of one task on `queue` (topic `<prefix>queue.<name>`). Shared by the direct
 * `TaskQueue` and the transactional outbox (`enqueueTask` in `@platform/outbox`).
 */
export function buildTask<A extends object>(
  queue: QueueName,
  task: string,
  args: A,
  options: EnqueueOptions & { topicPrefix?: string } = {},
): OutgoingTask<A> {
  if (!task) throw new Error('task name is required');
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new TypeError('task args must be a plain object');
  }
  const id = options.id ?? randomUUID();
  const message: TaskMessage<A> = {
    id,
    task,
    args: options.seal ? ({} as A) : args,
    enqueued_at: new Date().toISOString(),
    request_id: requestContext.current()?.requestId ?? requestContext.newRequestId(),
    ...(options.seal ? { sealed_args: options.seal.encrypt(JSON.stringify(args)) } : {}),
  };
  return {
    topic: queueTopic(queue, options.topicPrefix ?? ''),
    key: options.key ?? id,
    id,
    type: task,
    value: message,
  };
}

/** Validates a consumed task message and opens sealed args (a sealed task without the key is final). */
export function parseTask(value: unknown, cipher: TaskArgsCipher | undefined): TaskMessage {
  const v = value as Partial<TaskMessage> | null;
  if (
    typeof v !== 'object' ||
    v === null ||
    typeof v.id !== 'string' ||
    typeof v.task !== 'string' ||
    typeof v.args !== 'object' ||
    v.args === null ||
    Array.isArray(v.args)
  ) {
    throw new NonRetryableError('malformed task message: expected {id, task, args, enqueued_at, request_id}');
  }
  return {
    id: v.id,
    task: v.task,
    args: typeof v.sealed_args === 'string' && v.sealed_args ? openArgs(v.sealed_args, cipher) : v.args,
    enqueued_at: typeof v.enqueued_at === 'string' ? v.enqueued_at : '',
    request_id: typeof v.request_id === 'string' ? v.request_id : '',
  };
}

function openArgs(sealed: string, cipher: TaskArgsCipher | undefined): Record<string, unknown> {
  if (!cipher) throw new NonRetryableError('sealed task args but this worker has no key to open them');
  let parsed: unknown;
  try {
    parsed = JSON.parse(cipher.decrypt(sealed));
  } catch {
    // A wrong key or a tampered message never decrypts; retrying cannot help.
    throw new NonRetryableError('sealed task args could not be opened');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new NonRetryableError('sealed task args are not an object');
  }
  return parsed as Record<string, unknown>;
}
