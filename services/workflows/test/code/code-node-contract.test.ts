import { CODE_NODE_RULES } from '@platform/contracts';
import { MAX_TIMEOUT_MS, SUPPORTED_LANGUAGES } from '@platform/sandbox';
import { describe, expect, it } from 'vitest';

// The contract states the code node's languages and time limit for the gateway's document (which
// does not load the sandbox); the sandbox enforces its own. They must not drift apart.
describe('code node rules of the contract', () => {
  it('name the languages the sandbox supports and its time limit', () => {
    expect([...CODE_NODE_RULES.languages]).toEqual([...SUPPORTED_LANGUAGES]);
    expect(CODE_NODE_RULES.maxTimeoutMs).toBe(MAX_TIMEOUT_MS);
  });
});
