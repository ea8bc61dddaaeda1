import type * as modelsV1 from '@platform/contracts/platform/models/v1/models';
import { BusinessError, ErrorCode } from '@platform/errors';
import { OutboundHttpError } from '@platform/outbound-http';
import type { ModelsDependencies } from '../../deps.js';
import { joinUrl, withSingleV1 } from '../catalog/endpoints.js';
import { findProvider } from '../catalog/providers.js';
import { providerName } from '../catalog/wire-values.js';
import { authHeaders, modelRequest, upstreamErrorText } from './model-outbound.js';

export type DiscoverDeps = Pick<ModelsDependencies, 'allowlist' | 'resolve'>;

/** Model ids from a `/models` answer: OpenAI-style `data[].id`, or `models[].id|name` (Google-style). */
export function modelIdsOf(body: unknown): string[] {
  const record = (body ?? {}) as Record<string, unknown>;
  const list = Array.isArray(record.data) ? record.data : Array.isArray(record.models) ? record.models : [];
  const ids: string[] = [];
  for (const item of list as unknown[]) {
    if (typeof item === 'string') ids.push(item);
    else if (item && typeof item === 'object') {
      const entry = item as Record<string, unknown>;
      const id = typeof entry.id === 'string' ? entry.id : typeof entry.name === 'string' ? entry.name : null;
      if (id) ids.push(id);
    }
  }
  return [...new Set(ids)];
}

/**
 * `POST /admin/models/discover`: the upstream's model list at `<base>/models`, or for the decision
 * provider `<base>/v1/models` with exactly one `/v1`. The base is the body's `base_url`, else the
 * provider's general endpoint.
 */
export async function discoverModels(
  deps: DiscoverDeps,
  request: modelsV1.DiscoverModelsRequest,
): Promise<modelsV1.DiscoverModelsResponse> {
  const provider = findProvider(providerName(request.provider));
  if (!provider) throw BusinessError.validation({ provider: ['unknown provider'] }, { httpStatus: 400 });
  const base = request.base_url || provider.default_base_url;
  if (!base) {
    throw BusinessError.validation(
      { base_url: [`required: provider ${provider.id} has no default endpoint`] },
      { httpStatus: 400 },
    );
  }
  const url = provider.is_decision_provider ? withSingleV1(base, 'models') : joinUrl(base, 'models');
  let response;
  try {
    response = await modelRequest(deps, url, {
      method: 'GET',
      headers: authHeaders(request.api_key ?? null),
    });
  } catch (error) {
    if (error instanceof OutboundHttpError) {
      throw new BusinessError(ErrorCode.BAD_REQUEST, { data: { detail: error.message } });
    }
    throw error;
  }
  if (response.status < 200 || response.status >= 300) {
    throw new BusinessError(ErrorCode.BAD_REQUEST, { data: { detail: upstreamErrorText(response) } });
  }
  let body: unknown;
  try {
    body = response.json();
  } catch {
    throw new BusinessError(ErrorCode.BAD_REQUEST, { data: { detail: 'upstream answer is not JSON' } });
  }
  return { models: modelIdsOf(body) };
}
