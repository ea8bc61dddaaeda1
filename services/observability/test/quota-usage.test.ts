import { createOutgoingTrust } from '@platform/grpc';
import { createLogger } from '@platform/logger';
import { stackEnv } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { modelsQuotaUsage } from '../src/adapters/quota-usage.js';

describe('model quota counters for /tokens', () => {
  it('models unreachable: no figure (null), never an error, so /tokens answers from the facts', async () => {
    const trust = createOutgoingTrust({
      service: 'observability',
      serviceSigningKey: stackEnv.serviceSigningKey('observability'),
    });
    const reader = modelsQuotaUsage('127.0.0.1:1', trust.to('models'), createLogger('test', 'silent'));
    try {
      await expect(reader.tokensBetween(new Date(Date.now() - 86_400_000), new Date())).resolves.toBeNull();
    } finally {
      reader.close();
    }
  });
});
