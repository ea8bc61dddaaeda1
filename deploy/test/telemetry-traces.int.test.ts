// Proof with the real tool: a request through the gateway that makes a gRPC call is ONE trace in
// the local stack's Jaeger (deploy/local/stack.sh; the services export to it over OTLP/HTTP with
// every trace sampled, deploy/local/env.sh), and the gateway's access-log line for that request
// names the same trace and the gateway's span.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  accessLogLine,
  GATEWAY_URL,
  jaegerFind,
  jaegerTrace,
  parentOf,
  serviceOf,
  tagOf,
  waitFor,
  type JaegerSpan,
  type JaegerTrace,
} from './support/telemetry-backends.js';

const ROUTE = '/api/v1/captcha'; // public, and served by identity over gRPC (CaptchaService)

interface RequestSpans {
  gateway: JaegerSpan;
  client: JaegerSpan;
  identity: JaegerSpan;
}

/** The gateway's server span, its gRPC client span and identity's server span below it. */
function requestSpans(trace: JaegerTrace): RequestSpans | undefined {
  const kind = (span: JaegerSpan) => tagOf(span, 'span.kind');
  const gateway = trace.spans.find(
    (s) => serviceOf(trace, s) === 'gateway' && kind(s) === 'server' && s.operationName === `GET ${ROUTE}`,
  );
  const client = trace.spans.find(
    (s) => serviceOf(trace, s) === 'gateway' && kind(s) === 'client' && parentOf(s) === gateway?.spanID,
  );
  const identity = trace.spans.find(
    (s) => serviceOf(trace, s) === 'identity' && kind(s) === 'server' && parentOf(s) === client?.spanID,
  );
  return gateway && client && identity ? { gateway, client, identity } : undefined;
}

describe('traces in the local Jaeger', () => {
  it('a gateway request and the gRPC call it makes are one trace, named by the access log', async () => {
    const requestId = `trace-proof-${randomUUID()}`;
    const response = await fetch(`${GATEWAY_URL}${ROUTE}`, { headers: { 'x-request-id': requestId } });
    expect(response.status).toBe(200);

    const line = await waitFor(
      async () => accessLogLine(requestId),
      10_000,
      `the access log line of ${requestId}`,
    );
    expect(line.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(line.span_id).toMatch(/^[0-9a-f]{16}$/);

    // Spans arrive in batches (about a second in the services, 200 ms in Jaeger).
    const trace = await waitFor(
      async () => {
        const found = await jaegerTrace(line.trace_id!);
        return found && requestSpans(found) ? found : undefined;
      },
      20_000,
      `trace ${line.trace_id} with the gateway, gRPC client and identity spans`,
    );
    const spans = requestSpans(trace)!;
    expect(trace.traceID).toBe(line.trace_id);
    expect(parentOf(spans.gateway)).toBeUndefined(); // the gateway starts the trace
    expect(spans.client.operationName).toMatch(/^platform\.identity\.v1\.CaptchaService\//);
    expect(spans.identity.operationName).toBe(spans.client.operationName);
    expect(tagOf(spans.gateway, 'request_id')).toBe(requestId);
    expect(tagOf(spans.gateway, 'http.route')).toBe(ROUTE);
    // The log line was written inside the gateway's span: its ids lead to this very span.
    expect(line.span_id).toBe(spans.gateway.spanID);

    // ONE trace: the request's id tags the root of exactly this trace and no other.
    const tagged = await jaegerFind('gateway', 'request_id', requestId);
    expect(tagged.map((t) => t.traceID)).toEqual([line.trace_id]);
  });

  it("does not let a client's traceparent steer the trace: the gateway starts its own", async () => {
    const requestId = `trace-foreign-${randomUUID()}`;
    const foreignTraceId = randomUUID().replace(/-/g, '');
    const response = await fetch(`${GATEWAY_URL}${ROUTE}`, {
      headers: { 'x-request-id': requestId, traceparent: `00-${foreignTraceId}-00f067aa0ba902b7-01` },
    });
    expect(response.status).toBe(200);
    const line = await waitFor(
      async () => accessLogLine(requestId),
      10_000,
      `the access log line of ${requestId}`,
    );
    expect(line.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(line.trace_id).not.toBe(foreignTraceId);
    const trace = await waitFor(
      async () => {
        const found = await jaegerTrace(line.trace_id!);
        return found && requestSpans(found) ? found : undefined;
      },
      20_000,
      `trace ${line.trace_id}`,
    );
    expect(parentOf(requestSpans(trace)!.gateway)).toBeUndefined();
    expect(await jaegerTrace(foreignTraceId)).toBeUndefined();
  });
});
