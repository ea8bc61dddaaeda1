import {
  MODEL_TYPES as MODEL_TYPE_SET,
  type ModelProviderName,
  type ModelTypeName,
} from '@platform/contracts';

/**
 * The provider catalog as data (docs/models.md "Catalog"): the 22 vendors and `custom`, their
 * model types and default endpoints. Everything else (embedding support, official origins,
 * endpoint resolution) is derived from this one table. The closed lists of types and provider ids
 * are the contract's (packages/contracts models-sets.ts); a unit test keeps this table covering
 * exactly those ids.
 */

export const MODEL_TYPES = MODEL_TYPE_SET.names;
export type ModelType = ModelTypeName;

export const MODEL_TYPE_NAMES: Record<ModelType, string> = {
  chat: 'Chat',
  embedding: 'Embedding',
  rerank: 'Rerank',
  tts: 'Text to speech',
  stt: 'Speech to text',
  audio_generation: 'Audio generation',
  text_to_image: 'Text to image',
  text_to_video: 'Text to video',
  decision: 'Decision',
};

/**
 * How the provider's embeddings are called: `openai` = a direct OpenAI-compatible `/embeddings`
 * call (upstream usage captured); `fallback` = the generic adapter (Google-type, Azure-type; usage
 * empty); absent = embedding models are refused at creation.
 */
export type EmbeddingAdapter = 'openai' | 'fallback';

export interface ProviderEntry {
  id: ModelProviderName;
  name: string;
  model_types: readonly ModelType[];
  /** The general endpoint; null for the three that have none (a configured endpoint is required). */
  default_base_url: string | null;
  /** Per-type endpoints that win over the general one. */
  type_base_urls: Partial<Record<ModelType, string>>;
  embedding?: EmbeddingAdapter;
  is_decision_provider?: boolean;
}

const compat = (
  id: ModelProviderName,
  name: string,
  url: string,
  extra: readonly ModelType[] = [],
): ProviderEntry => ({
  id,
  name,
  model_types: ['chat', 'embedding', ...extra],
  default_base_url: url,
  type_base_urls: {},
  embedding: 'openai',
});

export const PROVIDERS: readonly ProviderEntry[] = [
  // The OpenAI-compatible group: 12 vendors plus `custom` (13 with direct `/embeddings`).
  compat('openai', 'OpenAI', 'https://api.openai.com/v1', ['tts', 'stt', 'text_to_image']),
  compat('deepseek', 'DeepSeek', 'https://api.deepseek.com/v1'),
  compat('qwen', 'Qwen (Alibaba Cloud DashScope)', 'https://dashscope.aliyuncs.com/compatible-mode/v1', [
    'rerank',
  ]),
  compat('zhipu', 'Zhipu AI', 'https://open.bigmodel.cn/api/paas/v4'),
  compat('moonshot', 'Moonshot AI', 'https://api.moonshot.cn/v1'),
  compat('mistral', 'Mistral AI', 'https://api.mistral.ai/v1'),
  compat('groq', 'Groq', 'https://api.groq.com/openai/v1', ['stt']),
  compat('together', 'Together AI', 'https://api.together.xyz/v1', ['rerank', 'text_to_image']),
  compat('siliconflow', 'SiliconFlow', 'https://api.siliconflow.cn/v1', ['rerank', 'text_to_image']),
  compat('openrouter', 'OpenRouter', 'https://openrouter.ai/api/v1'),
  compat('xai', 'xAI', 'https://api.x.ai/v1'),
  compat('baichuan', 'Baichuan', 'https://api.baichuan-ai.com/v1'),
  // Google-type and Azure-type: embeddings through the fallback adapter.
  {
    id: 'gemini',
    name: 'Google Gemini',
    model_types: ['chat', 'embedding', 'text_to_image'],
    default_base_url: 'https://generativelanguage.googleapis.com/v1beta',
    type_base_urls: {},
    embedding: 'fallback',
  },
  {
    // The cloud provider that needs a configured endpoint (each resource has its own host).
    id: 'azure_openai',
    name: 'Azure OpenAI',
    model_types: ['chat', 'embedding', 'tts', 'stt', 'text_to_image'],
    default_base_url: null,
    type_base_urls: {},
    embedding: 'fallback',
  },
  {
    id: 'anthropic',
    name: 'Anthropic',
    model_types: ['chat'],
    default_base_url: 'https://api.anthropic.com/v1',
    type_base_urls: {},
  },
  {
    id: 'cohere',
    name: 'Cohere',
    model_types: ['chat', 'rerank'],
    default_base_url: 'https://api.cohere.com/v2',
    type_base_urls: {},
  },
  {
    // The voice provider: dedicated defaults for tts and audio_generation.
    id: 'elevenlabs',
    name: 'ElevenLabs',
    model_types: ['tts', 'stt', 'audio_generation'],
    default_base_url: 'https://api.elevenlabs.io/v1',
    type_base_urls: {
      tts: 'https://api.elevenlabs.io/v1/text-to-speech',
      audio_generation: 'https://api.elevenlabs.io/v1/sound-generation',
    },
  },
  {
    // The decision provider: the only one accepted for `decision` (runtime `<base>/v1/systemone`).
    id: 'systemone',
    name: 'SystemOne',
    model_types: ['decision'],
    default_base_url: 'https://api.systemone.ai/v1',
    type_base_urls: {},
    is_decision_provider: true,
  },
  {
    // The image provider that needs a proxy (no official API): the endpoint is the proxy's.
    id: 'midjourney',
    name: 'Midjourney (via proxy)',
    model_types: ['text_to_image'],
    default_base_url: null,
    type_base_urls: {},
  },
  {
    id: 'stability',
    name: 'Stability AI',
    model_types: ['text_to_image', 'text_to_video'],
    default_base_url: 'https://api.stability.ai/v2beta',
    type_base_urls: {},
  },
  {
    id: 'runway',
    name: 'Runway',
    model_types: ['text_to_video'],
    default_base_url: 'https://api.dev.runwayml.com/v1',
    type_base_urls: {},
  },
  {
    id: 'kling',
    name: 'Kling AI',
    model_types: ['text_to_video', 'text_to_image'],
    default_base_url: 'https://api.klingai.com/v1',
    type_base_urls: {},
  },
  {
    // OpenAI-compatible; the integrator supplies the endpoint.
    id: 'custom',
    name: 'Custom (OpenAI-compatible)',
    model_types: ['chat', 'embedding', 'rerank', 'tts', 'stt', 'text_to_image'],
    default_base_url: null,
    type_base_urls: {},
    embedding: 'openai',
  },
];

const BY_ID = new Map<string, ProviderEntry>(PROVIDERS.map((provider) => [provider.id, provider]));

export function findProvider(id: string): ProviderEntry | undefined {
  return BY_ID.get(id);
}

export const DECISION_PROVIDER: ProviderEntry = PROVIDERS.find((p) => p.is_decision_provider)!;

export function supportsEmbedding(provider: ProviderEntry): boolean {
  return provider.embedding !== undefined;
}

/**
 * The origins of every default endpoint (general and per type), each once: what identity's
 * `model_endpoint_allowlist` ships with (kept equal by scripts/test/model-allowlist-default.test.ts).
 */
export function officialOrigins(): string[] {
  const origins = new Set<string>();
  for (const provider of PROVIDERS) {
    for (const url of [provider.default_base_url, ...Object.values(provider.type_base_urls)]) {
      if (url) origins.add(new URL(url).origin);
    }
  }
  return [...origins];
}
