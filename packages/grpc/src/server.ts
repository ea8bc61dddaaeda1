import {
  Server,
  ServerCredentials,
  type sendUnaryData,
  type ServerErrorResponse,
  type ServerUnaryCall,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { requestContext, type Logger } from '@platform/logger';
import { HealthImplementation } from 'grpc-health-check';
import { performance } from 'node:perf_hooks';
import { failureStatus, openCall, type MethodSetup } from './call-setup.js';
import { trackServerCall } from './call-telemetry.js';
import { wrapServerStream } from './server-stream.js';
import type { ServiceDefinition, ServiceHandlers, UnaryHandler } from './service-types.js';
import { internalErrorStatus } from './status-details.js';
import type { ServerTrust } from './trust/server-trust.js';

/**
 * Methods only other services may call, each with the service names allowed to (checked against
 * the caller's service token; docs/security.md). Every other method is callable by the gateway.
 */
export type InternalMethods<D extends ServiceDefinition> = { [K in keyof D]?: readonly string[] };

export interface RegistrationOptions<D extends ServiceDefinition> {
  internal?: InternalMethods<D>;
}

export interface ServiceRegistration<D extends ServiceDefinition = ServiceDefinition> {
  /** Fully qualified service name, e.g. `platform.identity.v1.IdentityService` (used by health). */
  name: string;
  definition: D;
  handlers: ServiceHandlers<D>;
  internal: InternalMethods<D>;
}

export function registration<D extends ServiceDefinition>(
  name: string,
  definition: D,
  handlers: ServiceHandlers<D>,
  options: RegistrationOptions<D> = {},
): ServiceRegistration<D> {
  return { name, definition, handlers, internal: options.internal ?? {} };
}

/**
 * Declares methods of a registration internal-only (`registration(...)` stays as it is):
 * `return internalOnly(registration(...), { getPrincipal: ['gateway'] })`.
 */
export function internalOnly<D extends ServiceDefinition>(
  service: ServiceRegistration<D>,
  internal: InternalMethods<D>,
): ServiceRegistration<D> {
  return { ...service, internal: { ...service.internal, ...internal } };
}

export interface GrpcServerOptions {
  host?: string;
  port: number;
  logger: Logger;
  services: ServiceRegistration[];
  /**
   * Checks principal signatures and service tokens on every call (`createServerTrust`). A server
   * without services (health only: the sandbox worker) takes none.
   */
  trust?: ServerTrust;
}

export interface RunningGrpcServer {
  port: number;
  /** Marks every `grpc.health.v1` status NOT_SERVING (readiness fails first) and keeps serving. */
  markNotServing(): void;
  /** Marks every service NOT_SERVING, lets calls in flight finish, then closes. */
  shutdown(graceMs?: number): Promise<void>;
}

function wrapUnary(setup: MethodSetup) {
  const { method, handler, logger } = setup;
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    const tracked = trackServerCall(method, call.metadata);
    const answer: sendUnaryData<unknown> = (status, response) => {
      tracked.finish(status?.code, status ?? undefined);
      callback(status, response);
    };
    void tracked
      .run(async () => {
        const context = await openCall(setup, call.metadata, call.getDeadline(), (status) =>
          answer(status as ServerErrorResponse),
        );
        if (!context) return;
        await requestContext.run(
          { requestId: context.requestId, locale: context.locale, userId: context.principal?.user_id },
          async () => {
            const started = performance.now();
            try {
              const response = await handler(call.request as never, context);
              answer(null, response);
              logger.debug({ rpc: method, duration_ms: +(performance.now() - started).toFixed(2) }, 'rpc ok');
            } catch (error) {
              answer(failureStatus(logger, method, error, started) as ServerErrorResponse);
            }
          },
        );
      })
      .catch((error: unknown) => {
        logger.error({ rpc: method, err: error }, 'rpc failed before its handler');
        answer(internalErrorStatus() as ServerErrorResponse);
      });
  };
}

/**
 * Starts a gRPC server with the given services plus the standard grpc.health.v1 service.
 * Handlers are async functions (request, context) → response; a thrown BusinessError crosses the
 * wire as a rich status, anything else as INTERNAL with the cause logged here. Every call's
 * credentials are checked by `trust` before its handler runs (docs/security.md).
 */
export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const { logger } = options;
  const server = new Server({
    'grpc.max_receive_message_length': 8 * 1024 * 1024,
    // Connections are recycled every few minutes so clients re-resolve DNS and pick up new
    // replicas behind a headless Service; the grace lets calls in flight finish.
    'grpc.max_connection_age_ms': 5 * 60_000,
    'grpc.max_connection_age_grace_ms': 30_000,
  });
  const health = new HealthImplementation({ '': 'SERVING' });
  health.addToServer(server);

  for (const service of options.services) {
    const trust = options.trust;
    if (!trust) throw new Error(`${service.name}: a server with services needs a trust`);
    const implementation: UntypedServiceImplementation = {};
    const internal = service.internal as Record<string, readonly string[] | undefined>;
    for (const method of Object.keys(internal)) {
      if (!(method in service.handlers))
        throw new Error(`${service.name}: internal method ${method} has no handler`);
    }
    for (const [method, handler] of Object.entries(service.handlers)) {
      const setup = {
        method: `${service.name}/${method}`,
        handler: handler as UnaryHandler<never>,
        logger,
        trust,
        allowedCallers: internal[method],
      };
      implementation[method] = service.definition[method]?.responseStream
        ? wrapServerStream(setup)
        : wrapUnary(setup);
    }
    server.addService(service.definition, implementation);
    health.setStatus(service.name, 'SERVING');
  }

  const address = `${options.host ?? '0.0.0.0'}:${options.port}`;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address, ServerCredentials.createInsecure(), (error, boundPort) =>
      error ? reject(error) : resolve(boundPort),
    );
  });
  logger.info({ address, services: options.services.map((s) => s.name) }, 'gRPC server listening');

  const markNotServing = () => {
    health.setStatus('', 'NOT_SERVING');
    for (const service of options.services) health.setStatus(service.name, 'NOT_SERVING');
  };
  return {
    port,
    markNotServing,
    async shutdown(graceMs = 10_000) {
      markNotServing();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          logger.warn({ grace_ms: graceMs }, 'gRPC graceful shutdown timed out; forcing');
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      logger.info('gRPC server stopped');
    },
  };
}
