import { conformanceV1 } from '@platform/contracts';
import { defineRoute, type RouteDefinition } from '@platform/gateway';
import type { ServiceClient } from '@platform/grpc';
import { z } from 'zod';

export interface ProbeClients {
  probe: ServiceClient<typeof conformanceV1.ProbeServiceService>;
}

const note = z.object({ id: z.uuid(), name: z.string(), body: z.string(), created_at: z.string() });

/** Route-table entries that exercise the gateway against the probe service (tests and bench only). */
export const probeRoutes: RouteDefinition<ProbeClients>[] = [
  defineRoute<ProbeClients, undefined, undefined, { name: string; body: string }, conformanceV1.Note>({
    method: 'post',
    path: '/probe/notes',
    summary: 'Create a probe note',
    tags: ['probe'],
    auth: 'public',
    body: z.object({ name: z.string().min(1).max(100), body: z.string().max(10_000) }),
    response: note,
    invoke: ({ body }, { clients }) => clients.probe.call('putNote', body),
  }),
  defineRoute<ProbeClients, { id: string }, undefined, undefined, conformanceV1.Note>({
    method: 'get',
    path: '/probe/notes/:id',
    summary: 'Read a probe note',
    tags: ['probe'],
    auth: 'public',
    params: z.object({ id: z.uuid() }),
    response: note,
    invoke: ({ params }, { clients }) => clients.probe.call('getNote', { id: params.id }),
  }),
  defineRoute<
    ProbeClients,
    undefined,
    { text: string; delay_ms: number },
    undefined,
    conformanceV1.EchoResponse
  >({
    method: 'get',
    path: '/probe/echo',
    summary: 'Echo through the probe service',
    tags: ['probe'],
    auth: 'public',
    query: z.object({
      text: z.string().max(100).default(''),
      delay_ms: z.coerce.number().int().min(0).max(60_000).default(0),
    }),
    invoke: ({ query }, { clients }) =>
      clients.probe.call('echo', { text: query.text, delay_ms: query.delay_ms, include_principal: true }),
  }),
  defineRoute<ProbeClients, undefined, undefined, undefined, conformanceV1.EchoResponse>({
    method: 'get',
    path: '/probe/whoami',
    summary: 'Echo the authenticated principal through the probe service',
    tags: ['probe'],
    auth: 'user',
    permission: 'probe:read',
    invoke: (_input, { clients, principal }) =>
      clients.probe.call('echo', { text: 'whoami', delay_ms: 0, include_principal: true }, { principal }),
  }),
];
