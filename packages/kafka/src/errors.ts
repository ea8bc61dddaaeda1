/**
 * Throw from a handler for a failure that retrying cannot fix (a malformed payload, an unknown
 * task): the message goes to the dead-letter topic at once instead of after `maxRetries`.
 */
export class NonRetryableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NonRetryableError';
  }
}
