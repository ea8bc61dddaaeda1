import { MODEL_PROVIDERS, MODEL_TYPES } from '@platform/contracts';
import type { ModelProvider } from '@platform/contracts/platform/models/v1/models';
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../src/domain/catalog/providers.js';
import * as wire from '../src/domain/catalog/wire-values.js';

describe('the catalog and the contract closed sets', () => {
  it('the catalog holds exactly the contract provider ids, in its order', () => {
    expect(PROVIDERS.map((provider) => provider.id)).toEqual(MODEL_PROVIDERS.names);
  });

  it('every provider model type is one of the contract types', () => {
    for (const provider of PROVIDERS) {
      for (const type of provider.model_types)
        expect(MODEL_TYPES.has(type), `${provider.id} ${type}`).toBe(true);
    }
  });

  it('stored names translate to proto values both ways; a broken row is UNSPECIFIED, not a throw', () => {
    expect(wire.providerName(wire.providerValue('azure_openai'))).toBe('azure_openai');
    expect(wire.modelTypeName(wire.modelTypeValue('text_to_video'))).toBe('text_to_video');
    expect(wire.providerValue('no-such-provider')).toBe(0);
    expect(wire.modelTypeValue('video')).toBe(0);
  });

  it('a gRPC caller naming an unknown or unspecified value is refused with 1001', () => {
    for (const refuse of [
      () => wire.providerName(0),
      () => wire.providerName(999 as ModelProvider),
      () => wire.modelTypeName(0),
    ]) {
      expect(refuse).toThrow(expect.objectContaining({ code: 1001 }));
    }
  });
});
