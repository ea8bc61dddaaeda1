import { outboundRequest, type OutboundResponse, type Resolver } from '@platform/outbound-http';
import type { NodeModule, NodeRunInput } from '../engine/contract.js';
import { ByteMeter, type RunLimits } from '../engine/limits.js';
import { asText, renderText, renderValue, templateRootErrors, templatePaths } from '../engine/variables.js';
import { nodeIdsOf, intProblems } from './node-checks.js';
import { failed, isOutboundError, outboundFailure } from './node-failure.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export const HTTP_DEFAULT_TIMEOUT_MS = 30_000;
export const HTTP_MAX_TIMEOUT_MS = 300_000;
const MAX_HEADERS = 50;

export interface HttpNodeDependencies {
  /** `workflow_http_allowlist`: origins that may be reached on private addresses. */
  httpAllowlist?: () => Promise<readonly string[]>;
  /** DNS (tests play host names); the system resolver by default. */
  resolve?: Resolver;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function timeoutOf(data: Record<string, unknown>): number {
  return typeof data.timeout_ms === 'number' ? data.timeout_ms : HTTP_DEFAULT_TIMEOUT_MS;
}

function check(node: NodeRunInput['node'], definition: Parameters<NodeModule['check']>[1]): string[] {
  const { method, url, headers, body } = node.data;
  const problems: string[] = [];
  if (
    method !== undefined &&
    !HTTP_METHODS.includes(String(method).toUpperCase() as (typeof HTTP_METHODS)[number])
  ) {
    problems.push(`data.method must be one of ${HTTP_METHODS.join(', ')}`);
  }
  if (typeof url !== 'string' || url.trim() === '' || url.length > 8192) {
    problems.push('data.url must be a non-empty string of at most 8192 characters');
  } else if (templatePaths(url).length === 0 && !/^https?:\/\//i.test(url)) {
    problems.push('data.url must be an http or https URL');
  }
  if (
    headers !== undefined &&
    (!isRecord(headers) ||
      Object.keys(headers).length > MAX_HEADERS ||
      Object.values(headers).some((v) => typeof v !== 'string'))
  ) {
    problems.push(`data.headers must be an object of at most ${MAX_HEADERS} string values`);
  }
  problems.push(...intProblems(node.data.timeout_ms, 'data.timeout_ms', HTTP_MAX_TIMEOUT_MS));
  problems.push(...templateRootErrors([url, headers, body], nodeIdsOf(definition), 'data'));
  return problems;
}

/** The request body: a string template, or an object rendered leaf by leaf (all leaves within one value bound). */
function requestBody(
  body: unknown,
  variables: Record<string, unknown>,
  limits: RunLimits,
): { text?: string; json: boolean } {
  if (body === undefined || body === null || body === '') return { json: false };
  if (typeof body === 'string') return { text: renderText(body, variables, limits), json: false };
  const meter = new ByteMeter('value', limits.maxValueBytes);
  return { text: JSON.stringify(renderValue(body, variables, { ...limits, meter })), json: true };
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The body as later nodes read it: parsed JSON for a JSON content type, else text. A body that is
 * not UTF-8 text, or holds a NUL character (a binary file; Postgres text cannot hold NUL), is
 * `body` in base64 with `body_encoding: "base64"`, so it is stored and passed on intact.
 */
function bodyOutputs(response: OutboundResponse): { body: unknown; body_encoding?: 'base64' } {
  let text: string;
  try {
    text = utf8.decode(response.body);
  } catch {
    return { body: response.body.toString('base64'), body_encoding: 'base64' };
  }
  if (text.includes('\u0000')) return { body: response.body.toString('base64'), body_encoding: 'base64' };
  const type = String(response.headers['content-type'] ?? '');
  if (!/\bjson\b/i.test(type)) return { body: text };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { body: text };
  }
}

/**
 * `http_request` (docs/workflows.md "http_request"): method, templated URL, headers and body,
 * through the outbound guard. Public addresses may be called; private, loopback and CGNAT ones
 * only when the origin is in `workflow_http_allowlist`; metadata and link-local never. Sends
 * `Idempotency-Key: <run_id>:<node_id>` (the same on a retry after a crash). Outputs
 * `{status, headers, body}` (JSON bodies parsed). A non-2xx answer fails the node unless
 * `data.fail_on_error_status` is false.
 */
export function httpRequestNode(deps: HttpNodeDependencies): NodeModule {
  return {
    type: 'http_request',
    check,
    timeoutMs: (node) => timeoutOf(node.data),
    async execute({ node, variables, idempotencyKey, signal, run }) {
      const { limits } = run;
      const timeoutMs = timeoutOf(node.data);
      const method = String(node.data.method ?? 'GET').toUpperCase();
      const url = renderText(node.data.url as string, variables, limits).trim();
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(isRecord(node.data.headers) ? node.data.headers : {})) {
        headers[name.toLowerCase()] = asText(renderText(String(value), variables, limits));
      }
      const body = requestBody(node.data.body, variables, limits);
      if (body.json && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
      headers['idempotency-key'] = idempotencyKey;
      let response: OutboundResponse;
      try {
        response = await outboundRequest(
          url,
          {
            method,
            headers,
            ...(body.text !== undefined && method !== 'GET' && method !== 'HEAD' ? { body: body.text } : {}),
            signal,
            // A user's URL: no `traceparent` is sent (request-telemetry.ts in @platform/outbound-http).
            purpose: 'http_request',
          },
          {
            allowlist: deps.httpAllowlist ?? [],
            requireAllowlisted: false,
            timeoutMs,
            maxResponseBytes: limits.maxHttpResponseBytes,
            ...(deps.resolve ? { resolve: deps.resolve } : {}),
          },
        );
      } catch (error) {
        if (isOutboundError(error)) return outboundFailure(error, timeoutMs, 'http');
        throw error;
      }
      const outputs = {
        status: response.status,
        headers: { ...response.headers },
        ...bodyOutputs(response),
      };
      const ok = response.status >= 200 && response.status < 300;
      if (!ok && node.data.fail_on_error_status !== false) {
        return failed(
          'http_status',
          `${method} ${response.url} answered HTTP ${response.status}`,
          { status: response.status },
          outputs,
        );
      }
      return { status: 'success', outputs };
    },
  };
}
