import { z } from 'zod';
import { defineRoute } from './route-definition.js';

/** Liveness only: answers while the process is alive and never probes a database or Redis. */
export const healthRoutes = [
  defineRoute({
    method: 'get',
    path: '/health',
    summary: 'Liveness check',
    tags: ['health'],
    auth: 'public',
    response: z.object({ status: z.literal('healthy') }),
    invoke: async () => ({ status: 'healthy' as const }),
  }),
];
