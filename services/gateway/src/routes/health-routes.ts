import { BusinessError, ErrorCode } from '@platform/errors';
import { z } from 'zod';
import { defineRoute } from './route-definition.js';

export const healthRoutes = [
  /** Liveness only: answers while the process is alive and never probes a database or Redis (the spec). */
  defineRoute({
    method: 'get',
    path: '/health',
    summary: 'Liveness check',
    tags: ['health'],
    auth: 'public',
    response: z.object({ status: z.literal('healthy') }),
    invoke: async () => ({ status: 'healthy' as const }),
  }),
  /**
   * Readiness: 503 from SIGTERM on (the drain window, docs/gateway.md "Shutdown"), so balancers
   * stop sending while the replica still serves; `/health` keeps the spec's liveness answer.
   */
  defineRoute({
    method: 'get',
    path: '/health/ready',
    summary: 'Readiness check (503 while the replica shuts down)',
    tags: ['health'],
    auth: 'public',
    response: z.object({ status: z.literal('ready') }),
    errors: [{ code: ErrorCode.INTERNAL_ERROR, status: 503 }],
    invoke: async (_input, context) => {
      if (context.draining) throw BusinessError.named('shutting_down');
      return { status: 'ready' as const };
    },
  }),
];
