import { Metadata, status as GrpcStatus, type ServerWritableStream } from '@grpc/grpc-js';
import { requestContext } from '@platform/logger';
import { performance } from 'node:perf_hooks';
import { failureStatus, openCall, type MethodSetup } from './call-setup.js';
import { trackServerCall } from './call-telemetry.js';
import type { StreamHandler } from './service-types.js';
import { internalErrorStatus } from './status-details.js';

/**
 * A server-streaming method: the same credentials check, context and error mapping as a unary one
 * (a BusinessError thrown before or after the first message ends the stream with its rich status).
 * `send` waits for the transport's drain, and the handler's signal aborts when the client cancels.
 */
export function wrapServerStream(setup: MethodSetup) {
  const { method, logger } = setup;
  const handler = setup.handler as unknown as StreamHandler<never>;
  return (call: ServerWritableStream<unknown, unknown>) => {
    const tracked = trackServerCall(method, call.metadata);
    const cancelled = new AbortController();
    call.on('cancelled', () => {
      cancelled.abort(new Error('client cancelled'));
      tracked.finish(GrpcStatus.CANCELLED);
    });
    const end = (status: Parameters<typeof call.destroy>[0] | Record<string, unknown>) => {
      if (cancelled.signal.aborted) return;
      tracked.finish((status as { code?: number } | undefined)?.code ?? GrpcStatus.UNKNOWN, status);
      call.emit('error', status);
    };
    void tracked
      .run(async () => {
        const context = await openCall(setup, call.metadata, call.getDeadline(), (status) => end(status));
        if (!context) return;
        await requestContext.run(
          { requestId: context.requestId, locale: context.locale, userId: context.principal?.user_id },
          async () => {
            const started = performance.now();
            const send = (message: never) =>
              new Promise<void>((resolve, reject) => {
                if (cancelled.signal.aborted) {
                  reject(cancelled.signal.reason);
                  return;
                }
                if (call.write(message)) resolve();
                else call.once('drain', () => resolve());
              });
            let begun = false;
            const begin = () => {
              if (begun || cancelled.signal.aborted) return;
              begun = true;
              call.sendMetadata(new Metadata());
            };
            try {
              await handler(call.request as never, { ...context, signal: cancelled.signal, begin }, send);
              if (!cancelled.signal.aborted) {
                tracked.finish(GrpcStatus.OK);
                call.end();
              }
              logger.debug(
                { rpc: method, duration_ms: +(performance.now() - started).toFixed(2) },
                'stream ok',
              );
            } catch (error) {
              if (cancelled.signal.aborted) return;
              end(failureStatus(logger, method, error, started));
            }
          },
        );
      })
      .catch((error: unknown) => {
        logger.error({ rpc: method, err: error }, 'stream failed before its handler');
        end(internalErrorStatus());
      });
  };
}
