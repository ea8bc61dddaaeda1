/** Kafka header names used by the platform. */
export const Headers = {
  REQUEST_ID: 'x-request-id',
  USER_ID: 'x-user-id',
  MESSAGE_ID: 'x-message-id',
  EVENT_TYPE: 'x-event-type',
  CONTENT_TYPE: 'content-type',
  /** Set on dead-lettered messages. */
  DLQ_ERROR: 'x-dlq-error',
  DLQ_ERROR_NAME: 'x-dlq-error-name',
  DLQ_ATTEMPTS: 'x-dlq-attempts',
  DLQ_ORIGINAL_TOPIC: 'x-dlq-original-topic',
  DLQ_ORIGINAL_PARTITION: 'x-dlq-original-partition',
  DLQ_ORIGINAL_OFFSET: 'x-dlq-original-offset',
  DLQ_CONSUMER_GROUP: 'x-dlq-consumer-group',
  DLQ_FAILED_AT: 'x-dlq-failed-at',
} as const;

export const JSON_CONTENT_TYPE = 'application/json';

type RawHeaderValue = Buffer | string | (Buffer | string)[] | undefined;

/** Kafka headers as plain strings (the last value wins for repeated headers). */
export function decodeHeaders(raw: Record<string, RawHeaderValue> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) out[name] = last.toString();
  }
  return out;
}
