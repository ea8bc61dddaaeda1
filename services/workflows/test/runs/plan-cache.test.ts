import { describe, expect, it } from 'vitest';
import type { RunPlan } from '../../src/domain/runs/engine/plan.js';
import { PlanCache, type PlannedSnapshot } from '../../src/domain/runs/plan-cache.js';

const snapshot = (version: number, bytes: number): PlannedSnapshot => ({
  definitionText: 'x'.repeat(bytes),
  version,
  plan: {} as RunPlan,
});

describe('PlanCache', () => {
  it('keeps snapshots within its byte bound, dropping the least recently used', () => {
    const cache = new PlanCache(100);
    cache.set('wf', snapshot(1, 40));
    cache.set('wf', snapshot(2, 40));
    expect(cache.get('wf', 1)?.version).toBe(1); // version 2 is now the least recently used
    cache.set('wf', snapshot(3, 40));
    expect([cache.get('wf', 1)?.version, cache.get('wf', 2), cache.get('wf', 3)?.version]).toEqual([
      1,
      undefined,
      3,
    ]);
  });

  it('does not keep a snapshot bigger than the whole bound', () => {
    const cache = new PlanCache(100);
    cache.set('wf', snapshot(1, 10));
    cache.set('other', snapshot(1, 101));
    expect([cache.get('wf', 1)?.version, cache.get('other', 1)]).toEqual([1, undefined]);
  });

  it('keeps an empty definition text (a size is never zero)', () => {
    const cache = new PlanCache(100);
    cache.set('wf', snapshot(1, 0));
    expect(cache.get('wf', 1)?.version).toBe(1);
  });
});
