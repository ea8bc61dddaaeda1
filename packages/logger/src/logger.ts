import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import { requestContext } from './request-context.js';

export type Logger = PinoLogger;

/**
 * JSON logs on stdout, one object per line. Every line written inside a request context carries
 * `request_id` (and `user_id` when authenticated) so an operator can follow one request from the
 * gateway through gRPC and Kafka with a single grep.
 */
export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      messageKey: 'msg',
      redact: {
        paths: [
          'password',
          '*.password',
          'secret',
          '*.secret',
          'authorization',
          '*.authorization',
          'token',
          '*.token',
        ],
        censor: '[redacted]',
      },
      mixin() {
        const context = requestContext.current();
        if (!context) return {};
        return context.userId
          ? { request_id: context.requestId, user_id: context.userId }
          : { request_id: context.requestId };
      },
    },
    destination,
  );
}
