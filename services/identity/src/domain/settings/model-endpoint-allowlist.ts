import { z } from 'zod';

/**
 * The `model_endpoint_allowlist` default: the official origins of the models service's provider
 * catalog (services/models/src/domain/catalog/providers.ts), the decision provider's among them.
 * Services never import each other's code, so scripts/test/model-allowlist-default.test.ts keeps
 * the two lists equal.
 */
export const OFFICIAL_MODEL_ORIGINS: readonly string[] = [
  'https://api.openai.com',
  'https://api.deepseek.com',
  'https://dashscope.aliyuncs.com',
  'https://open.bigmodel.cn',
  'https://api.moonshot.cn',
  'https://api.mistral.ai',
  'https://api.groq.com',
  'https://api.together.xyz',
  'https://api.siliconflow.cn',
  'https://openrouter.ai',
  'https://api.x.ai',
  'https://api.baichuan-ai.com',
  'https://generativelanguage.googleapis.com',
  'https://api.anthropic.com',
  'https://api.cohere.com',
  'https://api.elevenlabs.io',
  'https://api.systemone.ai',
  'https://api.stability.ai',
  'https://api.dev.runwayml.com',
  'https://api.klingai.com',
];

/** The largest MODEL_ENDPOINT_ALLOWLIST_MAX_ENTRIES may be (the gateway bounds bodies to it too). */
export const ALLOWLIST_HARD_MAX = 1000;

/**
 * Whether an entry is exactly an origin, `scheme://host[:port]` (a trailing `/` allowed): http or
 * https, no credentials, path, query or fragment. Matching is by full origin (packages/outbound-http),
 * so anything more could never match and is refused instead of stored.
 */
export function isOriginEntry(entry: string): boolean {
  if (!/^https?:\/\/[^/?#\s]+\/?$/i.test(entry)) return false;
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return false;
  }
  return url.username === '' && url.password === '' && url.pathname === '/' && url.hostname !== '';
}

const originEntry = z
  .string()
  .max(512)
  .refine(
    (entry) => isOriginEntry(entry),
    'must be an origin: scheme://host[:port], without path, query or credentials',
  );

export const allowlistSchema = z.array(originEntry).max(ALLOWLIST_HARD_MAX);

/**
 * Most entries `workflow_http_allowlist` (the same origin format) may hold: the issue pins 200, so
 * it is a fixed cap rather than a deployment setting.
 */
export const WORKFLOW_HTTP_ALLOWLIST_MAX = 200;

/** The deployment's own cap (MODEL_ENDPOINT_ALLOWLIST_MAX_ENTRIES), checked on every update. */
export function allowlistTooLong(value: unknown, maxEntries: number): string | null {
  return Array.isArray(value) && value.length > maxEntries
    ? `at most ${maxEntries} entries (MODEL_ENDPOINT_ALLOWLIST_MAX_ENTRIES)`
    : null;
}
