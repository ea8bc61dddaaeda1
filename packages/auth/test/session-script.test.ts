import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SessionRegistry, TokenService, type SessionStore } from '../src/index.js';

const SECRET = 'session-script-test-secret-0123456789-abcdefghij';

/**
 * A Redis that knows scripts by SHA1 only once it has seen their text (EVAL), as a real one does
 * after a start, a SCRIPT FLUSH or a failover. Every script answers "nothing stored".
 */
class ScriptCachingStore implements SessionStore {
  readonly loaded = new Set<string>();
  readonly calls: string[] = [];
  async mget(...keys: string[]) {
    return keys.map(() => null);
  }
  async set() {
    return 'OK';
  }
  async del() {
    return 0;
  }
  async eval(script: string, _numKeys: number, ...args: (string | number)[]) {
    this.calls.push('eval');
    this.loaded.add(createHash('sha1').update(script).digest('hex'));
    return ['', '', '', String(args[4])];
  }
  async evalsha(sha1: string, _numKeys: number, ...args: (string | number)[]) {
    this.calls.push('evalsha');
    if (!this.loaded.has(sha1)) throw new Error('NOSCRIPT No matching script. Please use EVAL.');
    return ['', '', '', String(args[4])];
  }
}

describe('SessionRegistry.checkWithRevision', () => {
  it('runs the script by its SHA1, sending its text only when Redis does not know it', async () => {
    const store = new ScriptCachingStore();
    const registry = new SessionRegistry(store);
    const { claims } = await new TokenService(SECRET).issue('user-1', 'access', 60);
    expect(await registry.checkWithRevision(claims, 'rev-1')).toEqual({
      state: 'valid',
      principalRevision: 'rev-1',
    });
    await registry.checkWithRevision(claims, 'rev-2');
    expect(store.calls).toEqual(['evalsha', 'eval', 'evalsha']);
    store.loaded.clear(); // Redis restarted: its script cache is empty again
    await registry.checkWithRevision(claims, 'rev-3');
    expect(store.calls.slice(3)).toEqual(['evalsha', 'eval']);
  });

  it('passes any other failure on (Redis down fails closed at the gateway)', async () => {
    const store = new ScriptCachingStore();
    store.evalsha = async () => {
      throw new Error('Connection is closed.');
    };
    const { claims } = await new TokenService(SECRET).issue('user-1', 'access', 60);
    await expect(new SessionRegistry(store).checkWithRevision(claims, 'rev')).rejects.toThrow('closed');
    expect(store.calls).toEqual([]);
  });
});
