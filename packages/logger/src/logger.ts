import { context, trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import { requestContext } from './request-context.js';

export type Logger = PinoLogger;

/**
 * JSON logs on stdout, one object per line. Every line written inside a request context carries
 * `request_id` (and `user_id` when authenticated) so an operator can follow one request from the
 * gateway through gRPC and Kafka with a single grep; inside a trace it also carries `trace_id` and
 * `span_id`, the keys to the same request in the trace backend.
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
        const fields: Record<string, string> = {};
        const request = requestContext.current();
        if (request) {
          fields.request_id = request.requestId;
          if (request.userId) fields.user_id = request.userId;
        }
        const span = trace.getSpan(context.active())?.spanContext();
        if (span && trace.isSpanContextValid(span)) {
          fields.trace_id = span.traceId;
          fields.span_id = span.spanId;
        }
        return fields;
      },
    },
    destination,
  );
}
