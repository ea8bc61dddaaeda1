import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { settingsCacheGroup, settingsCacheInstance } from '../src/index.js';

describe('settings-cache consumer group', () => {
  it('is one group per pod, named after it, under the service prefix', () => {
    expect(settingsCacheGroup('workflows', settingsCacheInstance({ POD_NAME: 'workflows-7d9f-abcde' }))).toBe(
      'workflows.settings-cache.workflows-7d9f-abcde',
    );
  });

  it('is stable for one process without POD_NAME, and distinct per process on one machine', () => {
    const instance = settingsCacheInstance({});
    expect(instance).toBe(settingsCacheInstance({}));
    expect(instance).toBe(`${hostname()}-${process.pid}`.replace(/[^A-Za-z0-9._-]/g, '_'));
  });

  it('keeps to the characters of a group id', () => {
    expect(settingsCacheInstance({ POD_NAME: 'a b/c:d' })).toBe('a_b_c_d');
  });
});
