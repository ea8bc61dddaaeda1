import { fromJsonValue, RUN_MODES, toJsonValue, type workflowRunsV1 } from '@platform/contracts';
import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { defineRoute, type SseEvent } from './route-definition.js';
import { pagingQuery } from './validation.js';
import { pagedOf } from './workflows-presenters.js';
import { runSchema, startRunSchema, toRunBody, toStartedRun } from './workflow-runs-presenters.js';

/**
 * Workflow runs (docs/workflows.md "Runs"): a JWT with the route's permission, or an API key with
 * scope `workflow:execute` bound to the workflow whose owner holds `workflow:execute` at this
 * request (checked here, before the service is called). Reading a run needs what starting one
 * needs, so a client holding only a run key can follow what it started; which runs a key sees
 * (its own, or its owner's view) is the service's rule. Access to the workflow itself (owner, team)
 * is the service's check: 404.
 */
const base = {
  tags: ['workflow runs'],
  auth: 'user_or_api_key' as const,
  apiKeyScope: 'workflow:execute',
  apiKeyResource: { kind: 'workflow' as const, param: 'workflow_id' },
  apiKeyPermission: 'workflow:execute',
};
/** The service caps RUN_WAIT_LIMIT_MS at 120 s: a `wait` call's deadline stays above it. */
const WAIT_CALL_TIMEOUT_MS = 125_000;

const workflowParams = z.object({ workflow_id: z.uuid() });
type WorkflowParams = z.infer<typeof workflowParams>;
const runParams = z.object({ workflow_id: z.uuid(), run_id: z.uuid() });
type RunParams = z.infer<typeof runParams>;
const runBody = z
  .object({
    inputs: z.record(z.string(), z.unknown()).optional(),
    mode: z.enum(RUN_MODES.names).default('production'),
    wait: z.boolean().default(false),
  })
  .strict();
type RunBody = z.infer<typeof runBody>;
const listQuery = z.object(pagingQuery);
type ListQuery = z.infer<typeof listQuery>;

const invalid = { code: ErrorCode.VALIDATION_ERROR, status: 422 };
const streamQuery = z.object({
  last_event_id: z
    .string()
    .regex(/^\d{1,15}$/, 'must be a whole number (the id of the last event received)')
    .optional()
    .describe('for clients that cannot send the Last-Event-ID header; the header wins'),
});
type StreamQuery = z.infer<typeof streamQuery>;

/** The gRPC server stream as SSE events; a bad Last-Event-ID is refused before anything is sent. */
async function* runEvents(
  clients: ServiceClients,
  principal: Principal | undefined,
  params: RunParams,
  lastEventId: string | undefined,
  signal: AbortSignal,
): AsyncIterable<SseEvent> {
  const raw = lastEventId?.trim();
  if (raw !== undefined && raw !== '' && !/^\d{1,15}$/.test(raw)) {
    throw BusinessError.validation({
      'Last-Event-ID': ['must be a whole number (the id of the last event received)'],
    });
  }
  let begun: () => void = () => undefined;
  const accepted = new Promise<undefined>((resolve) => (begun = () => resolve(undefined)));
  const stream = clients.workflowRunStream.stream(
    'streamRunEvents',
    { workflow_id: params.workflow_id, run_id: params.run_id, after_seq: raw ? Number(raw) : 0 },
    { principal, signal, onBegin: () => begun() },
  );
  const iterator = stream[Symbol.asyncIterator]();
  let next = iterator.next();
  // Accepted (access checked upstream) before any event: open the stream now, not at the next event.
  if ((await Promise.race([next, accepted])) === undefined) yield { open: true };
  for (let result = await next; !result.done; result = await next) {
    const event = result.value;
    // The service's JSON value back to the text the client reads (the same text JSON.stringify gave).
    yield { id: event.seq, event: event.type, data: JSON.stringify(fromJsonValue(event.data) ?? null) };
    next = iterator.next();
  }
}

export const workflowRunsRoutes = [
  defineRoute<ServiceClients, WorkflowParams, undefined, RunBody, workflowRunsV1.StartRunResponse>({
    ...base,
    method: 'post',
    path: '/workflows/:workflow_id/run',
    summary:
      'Run a workflow: production runs the latest published snapshot, debug the draft; `wait` answers when it ends (or after the wait limit, then `running`)',
    permission: 'workflow:execute',
    params: workflowParams,
    body: runBody,
    errors: [invalid, ErrorCode.BAD_REQUEST, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED],
    response: startRunSchema,
    invoke: ({ params, body }, { clients, principal }) =>
      clients.workflowRuns.call(
        'startRun',
        {
          workflow_id: params.workflow_id,
          inputs: toJsonValue(body.inputs ?? {}),
          mode: RUN_MODES.toProto(body.mode),
          wait: body.wait,
        },
        { principal, ...(body.wait ? { timeoutMs: WAIT_CALL_TIMEOUT_MS } : {}) },
      ),
    present: toStartedRun,
  }),
  defineRoute<ServiceClients, WorkflowParams, ListQuery, undefined, workflowRunsV1.ListRunsResponse>({
    ...base,
    method: 'get',
    path: '/workflows/:workflow_id/runs',
    summary: "A workflow's runs, newest first",
    permission: 'workflow:read',
    params: workflowParams,
    query: listQuery,
    errors: [ErrorCode.NOT_FOUND],
    response: pagedOf(runSchema),
    invoke: ({ params, query }, { clients, principal }) =>
      clients.workflowRuns.call(
        'listRuns',
        { workflow_id: params.workflow_id, page: query.page, page_size: query.page_size },
        { principal },
      ),
    present: (list) => ({ ...list, items: list.items.map(toRunBody) }),
  }),
  defineRoute<ServiceClients, RunParams, undefined, undefined, workflowRunsV1.Run>({
    ...base,
    method: 'get',
    path: '/workflows/:workflow_id/runs/:run_id',
    summary: 'One run with its node executions in execution order',
    permission: 'workflow:read',
    params: runParams,
    errors: [ErrorCode.NOT_FOUND],
    response: runSchema,
    invoke: ({ params }, { clients, principal }) =>
      clients.workflowRuns.call(
        'getRun',
        { workflow_id: params.workflow_id, run_id: params.run_id },
        { principal },
      ),
    present: toRunBody,
  }),
  defineRoute<ServiceClients, RunParams, StreamQuery, undefined, undefined>({
    ...base,
    method: 'get',
    path: '/workflows/:workflow_id/runs/:run_id/stream',
    summary:
      "A run's events as Server-Sent Events (run_started, node_started, node_finished, text_chunk, run_finished, error): everything after Last-Event-ID, then the live tail; ends after run_finished",
    permission: 'workflow:read',
    params: runParams,
    query: streamQuery,
    errors: [invalid, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED],
    invoke: () => Promise.reject(new Error('an event-stream route is served by `events`')),
    events: ({ params, query }, { clients, principal }, lastEventId, signal) =>
      runEvents(clients, principal, params, lastEventId ?? query.last_event_id, signal),
    // Still allowed to read the run (team membership, the workflow's key binding): the service decides.
    recheck: ({ params }, { clients, principal }) =>
      clients.workflowRuns.call(
        'getRun',
        { workflow_id: params.workflow_id, run_id: params.run_id },
        { principal },
      ),
  }),
];
