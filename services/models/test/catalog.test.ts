import { describe, expect, it } from 'vitest';
import { joinUrl, resolveBaseUrl, withSingleV1 } from '../src/domain/catalog/endpoints.js';
import {
  DECISION_PROVIDER,
  MODEL_TYPES,
  officialOrigins,
  PROVIDERS,
  supportsEmbedding,
} from '../src/domain/catalog/providers.js';
import { decimalPlaces } from '../src/domain/models/model-fields.js';
import { modelIdsOf } from '../src/domain/connectivity/discover-models.js';

describe('provider catalog', () => {
  it('has 23 providers: 22 lowercase vendor ids and custom', () => {
    expect(PROVIDERS).toHaveLength(23);
    expect(new Set(PROVIDERS.map((p) => p.id)).size).toBe(23);
    for (const provider of PROVIDERS) expect(provider.id).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(PROVIDERS.filter((p) => p.id === 'custom')).toHaveLength(1);
    expect(MODEL_TYPES).toHaveLength(9);
  });

  it('exactly three providers have no general endpoint: the cloud one, the proxied image one, custom', () => {
    expect(PROVIDERS.filter((p) => p.default_base_url === null).map((p) => p.id)).toEqual([
      'azure_openai',
      'midjourney',
      'custom',
    ]);
    expect(officialOrigins()).toHaveLength(20);
  });

  it('15 providers support embeddings: 13 OpenAI-compatible (custom included) + Google- and Azure-type', () => {
    const supported = PROVIDERS.filter(supportsEmbedding);
    expect(supported).toHaveLength(15);
    expect(supported.filter((p) => p.embedding === 'openai')).toHaveLength(13);
    expect(supported.filter((p) => p.embedding === 'fallback').map((p) => p.id)).toEqual([
      'gemini',
      'azure_openai',
    ]);
    for (const id of ['systemone', 'anthropic', 'midjourney', 'stability', 'runway', 'kling'])
      expect(supported.map((p) => p.id)).not.toContain(id);
    // A provider lists embedding among its types exactly when it is supported.
    for (const provider of PROVIDERS)
      expect(provider.model_types.includes('embedding'), provider.id).toBe(supportsEmbedding(provider));
  });

  it('exactly one decision provider, not custom, and only it lists decision', () => {
    expect(PROVIDERS.filter((p) => p.is_decision_provider)).toEqual([DECISION_PROVIDER]);
    expect(DECISION_PROVIDER.id).not.toBe('custom');
    expect(PROVIDERS.filter((p) => p.model_types.includes('decision'))).toEqual([DECISION_PROVIDER]);
  });

  it('the voice provider has tts and audio_generation defaults', () => {
    const voice = PROVIDERS.find((p) => Object.keys(p.type_base_urls).length > 0)!;
    expect(Object.keys(voice.type_base_urls).sort()).toEqual(['audio_generation', 'tts']);
  });
});

describe('endpoint resolution', () => {
  it('explicit base_url, then provider + type, then the provider general endpoint', () => {
    expect(
      resolveBaseUrl({ provider: 'elevenlabs', model_type: 'tts', base_url: 'https://x.example/v1' }),
    ).toBe('https://x.example/v1');
    expect(resolveBaseUrl({ provider: 'elevenlabs', model_type: 'tts', base_url: null })).toBe(
      'https://api.elevenlabs.io/v1/text-to-speech',
    );
    expect(resolveBaseUrl({ provider: 'elevenlabs', model_type: 'stt', base_url: null })).toBe(
      'https://api.elevenlabs.io/v1',
    );
    expect(resolveBaseUrl({ provider: 'custom', model_type: 'chat', base_url: null })).toBeNull();
  });

  it('decision paths carry exactly one /v1', () => {
    for (const base of [
      'https://d.example',
      'https://d.example/',
      'https://d.example/v1',
      'https://d.example/v1/',
    ])
      expect(withSingleV1(base, 'systemone')).toBe('https://d.example/v1/systemone');
    expect(withSingleV1('https://d.example/api/v1', 'models')).toBe('https://d.example/api/v1/models');
    expect(joinUrl('https://o.example/v1/', '/models')).toBe('https://o.example/v1/models');
  });
});

describe('field rules and parsing', () => {
  it('counts decimal places as JSON wrote them', () => {
    expect(decimalPlaces(0.000001)).toBe(6);
    expect(decimalPlaces(1e-7)).toBe(7);
    expect(decimalPlaces(12.5)).toBe(1);
    expect(decimalPlaces(3)).toBe(0);
  });

  it('reads model ids from OpenAI-style and Google-style lists', () => {
    expect(modelIdsOf({ data: [{ id: 'a' }, { id: 'b' }, { id: 'a' }] })).toEqual(['a', 'b']);
    expect(modelIdsOf({ models: [{ name: 'models/g' }] })).toEqual(['models/g']);
    expect(modelIdsOf(null)).toEqual([]);
  });
});
