import { findProvider, type ModelType } from './providers.js';

/**
 * Endpoint resolution (docs/models.md): the model's explicit `base_url`, then the provider's
 * endpoint for the model's type, then the provider's general endpoint. Null when none exists
 * (azure_openai, midjourney and custom without a configured base_url).
 */
export function resolveBaseUrl(model: {
  provider: string;
  model_type: string;
  base_url: string | null;
}): string | null {
  if (model.base_url) return model.base_url;
  const provider = findProvider(model.provider);
  if (!provider) return null;
  return provider.type_base_urls[model.model_type as ModelType] ?? provider.default_base_url;
}

/** `path` appended to the base URL's path with exactly one slash between them (query kept). */
export function joinUrl(base: string, path: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  return url.toString();
}

/**
 * `<base_url>/v1/<path>` with exactly one `/v1` segment, whether or not the configured base_url
 * already ends in it (the decision provider's runtime and discovery paths).
 */
export function withSingleV1(base: string, path: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '').replace(/\/v1$/i, '')}/v1`;
  return joinUrl(url.toString(), path);
}
