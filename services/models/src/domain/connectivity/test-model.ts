import type * as modelsV1 from '@platform/contracts/platform/models/v1/models';
import { BusinessError, ErrorCode } from '@platform/errors';
import { OutboundHttpError, type OutboundRequestInit } from '@platform/outbound-http';
import { findModelById, type ModelRow } from '../../data/models-repo.js';
import type { ModelsDependencies } from '../../deps.js';
import { joinUrl, resolveBaseUrl, withSingleV1 } from '../catalog/endpoints.js';
import { authHeaders, modelRequest, upstreamErrorText } from './model-outbound.js';

export type TestModelDeps = Pick<ModelsDependencies, 'pool' | 'secrets' | 'allowlist' | 'resolve' | 'logger'>;

interface ProbeCall {
  url: string;
  init: OutboundRequestInit;
}

const json = (body: unknown, headers: Record<string, string>): OutboundRequestInit => ({
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/**
 * The light upstream call per type (docs/models.md "Connectivity test"): a decision model runs
 * one minimal evaluation at `<base>/v1/systemone`; chat a 1-token completion; embedding one
 * short input; every other type lists the upstream's models.
 */
export function probeCall(model: ModelRow, baseUrl: string, apiKey: string | null): ProbeCall {
  const headers = authHeaders(apiKey);
  switch (model.model_type) {
    case 'decision':
      return {
        url: withSingleV1(baseUrl, 'systemone'),
        init: json({ model: model.model_id, input: { facts: {} }, max_steps: 1 }, headers),
      };
    case 'chat':
      return {
        url: joinUrl(baseUrl, 'chat/completions'),
        init: json(
          { model: model.model_id, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1 },
          headers,
        ),
      };
    case 'embedding':
      return {
        url: joinUrl(baseUrl, 'embeddings'),
        init: json({ model: model.model_id, input: 'ping' }, headers),
      };
    default:
      return { url: joinUrl(baseUrl, 'models'), init: { method: 'GET', headers } };
  }
}

/**
 * `POST /admin/models/{id}/test`: overrides (`api_key`, `base_url`) are used for this call only.
 * An upstream error is a result (`success: false` with the upstream's text), not a failure of
 * the API; a URL the guard refuses is `model_endpoint_not_allowed`.
 */
export async function testModel(
  deps: TestModelDeps,
  request: modelsV1.TestModelRequest,
): Promise<modelsV1.TestModelResponse> {
  const model = await findModelById(deps.pool, request.id);
  if (!model) throw new BusinessError(ErrorCode.MODEL_NOT_FOUND);
  const baseUrl = resolveBaseUrl({ ...model, base_url: request.base_url || model.base_url });
  if (!baseUrl) {
    throw BusinessError.validation(
      { base_url: [`required: provider ${model.provider} has no default endpoint`] },
      { httpStatus: 400 },
    );
  }
  let apiKey: string | null;
  try {
    apiKey =
      request.api_key ?? (model.api_key_sealed === null ? null : deps.secrets.decrypt(model.api_key_sealed));
  } catch {
    // Sealed under another SECRET_KEY (a restore that did not keep it): nothing to send.
    return { success: false, message: 'the stored API key cannot be decrypted: was SECRET_KEY changed?' };
  }
  const call = probeCall(model, baseUrl, apiKey);
  const started = performance.now();
  try {
    const response = await modelRequest(deps, call.url, call.init);
    const latency = Math.round((performance.now() - started) * 1000) / 1000;
    if (response.status >= 200 && response.status < 300) {
      return {
        success: true,
        message: `Connection succeeded (HTTP ${response.status})`,
        latency_ms: latency,
      };
    }
    return { success: false, message: upstreamErrorText(response), latency_ms: latency };
  } catch (error) {
    // Refused connections, TLS failures, timeouts: nothing made the round trip.
    if (error instanceof OutboundHttpError) return { success: false, message: error.message };
    throw error;
  }
}
