import {
  histogram,
  injectTraceContext,
  LATENCY_BUCKETS,
  recordFailure,
  secondsSince,
  setSpan,
  activeContext,
  SpanKind,
  startSpan,
  type Span,
} from '@platform/telemetry';
import { OutboundHttpError, isPolicyRefusal } from './errors.js';

/**
 * What an outbound request is for, named by the caller: a closed set so it can be a metric label.
 * `llm` a model call of a workflow's llm node, `http_request` a workflow's http_request node,
 * `model_check` the models service's connectivity test and discovery, the notification channel
 * types for deliveries, `other` anything not named.
 */
export type OutboundPurpose =
  'llm' | 'http_request' | 'model_check' | 'webhook' | 'slack' | 'dingtalk' | 'feishu' | 'wecom' | 'other';

/** How a request ended: a closed set (metric label and span attribute). */
export type OutboundOutcome =
  'ok' | 'http_error' | 'timeout' | 'refused' | 'network_error' | 'aborted' | 'limit';

const requestDuration = histogram<'purpose' | 'outcome'>({
  name: 'outbound_http_request_duration_seconds',
  help: 'Outbound HTTP requests through the guard (redirects included), by what they were for and how they ended.',
  labelNames: ['purpose', 'outcome'],
  // Model answers stream for tens of seconds: the latency range plus a few longer buckets.
  buckets: [...LATENCY_BUCKETS, 30, 60, 120],
});

export function outcomeOfStatus(status: number): OutboundOutcome {
  return status >= 400 ? 'http_error' : 'ok';
}

export function outcomeOfError(error: unknown): OutboundOutcome {
  if (!(error instanceof OutboundHttpError)) return 'network_error';
  if (isPolicyRefusal(error)) return 'refused';
  switch (error.reason) {
    case 'timeout':
      return 'timeout';
    case 'aborted':
      return 'aborted';
    case 'too_many_redirects':
    case 'response_too_large':
      return 'limit';
    default:
      return 'network_error';
  }
}

export interface OutboundTelemetry {
  /** Headers to send: `traceparent` added only when the caller asked (`propagateTrace`). */
  headers: Record<string, string>;
  succeeded(status: number): void;
  failed(error: unknown): void;
}

/**
 * A CLIENT span and a histogram sample for one outbound request. The span names the method and the
 * host only (`server.address`, `server.port`): never the path's query, the userinfo or a header,
 * which may carry a user's secrets. The trace context is NOT sent to the target unless the caller
 * asks (`propagateTrace`, for our own servers): a user-configured URL must not learn our trace ids.
 */
export function startOutboundTelemetry(args: {
  url: URL | undefined;
  method: string;
  purpose: OutboundPurpose;
  headers: Record<string, string>;
  propagateTrace: boolean;
}): OutboundTelemetry {
  const startedAt = performance.now();
  const span: Span = startSpan(args.method, {
    kind: SpanKind.CLIENT,
    attributes: {
      'http.request.method': args.method,
      'outbound.purpose': args.purpose,
      ...(args.url
        ? {
            'server.address': args.url.hostname,
            'server.port': Number(args.url.port) || (args.url.protocol === 'https:' ? 443 : 80),
            'url.scheme': args.url.protocol.replace(':', ''),
          }
        : {}),
    },
  });
  const headers = { ...args.headers };
  if (args.propagateTrace) injectTraceContext(headers, setSpan(activeContext(), span));
  const finish = (outcome: OutboundOutcome) => {
    span.setAttribute('outbound.outcome', outcome);
    span.end();
    requestDuration.observe({ purpose: args.purpose, outcome }, secondsSince(startedAt));
  };
  return {
    headers,
    succeeded(status) {
      span.setAttribute('http.response.status_code', status);
      const outcome = outcomeOfStatus(status);
      if (outcome !== 'ok') recordFailure(span, new Error(`HTTP ${status}`));
      finish(outcome);
    },
    failed(error) {
      const outcome = outcomeOfError(error);
      // Not the error's message: it names the URL (path and query may hold a user's secrets).
      const reason = error instanceof OutboundHttpError ? error.reason : outcome;
      const safe = new Error(`outbound request failed: ${reason}`);
      safe.name = error instanceof Error ? error.name : 'Error';
      recordFailure(span, safe);
      span.setAttribute('outbound.reason', reason);
      finish(outcome);
    },
  };
}
