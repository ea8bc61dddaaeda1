import { describe, expect, it } from 'vitest';
import {
  cpuStatus,
  databaseStatus,
  diskStatus,
  memoryStatus,
  redisStatus,
  workersStatus,
  worst,
} from '../src/domain/system/thresholds.js';

describe('health thresholds (spec: CPU 70/90, memory and disk 80/90)', () => {
  it('turns usage into status words at the boundaries', () => {
    expect([69.99, 70, 89.99, 90].map(cpuStatus)).toEqual(['normal', 'warning', 'warning', 'danger']);
    expect([79.99, 80, 89.99, 90].map(memoryStatus)).toEqual(['normal', 'warning', 'warning', 'danger']);
    expect([79.99, 80, 90, 100].map(diskStatus)).toEqual(['normal', 'warning', 'danger', 'danger']);
    expect([10, 80, 95].map(databaseStatus)).toEqual(['normal', 'warning', 'danger']);
  });

  it('warns on a poor Redis hit rate only over enough lookups, or memory near maxmemory', () => {
    expect(redisStatus(10, 999, 1, 0)).toBe('normal');
    expect(redisStatus(49.9, 1000, 1, 0)).toBe('warning');
    expect(redisStatus(99, 5000, 90, 100)).toBe('warning');
    expect(redisStatus(99, 5000, 89, 100)).toBe('normal');
  });

  it('rates worker backlog over the queues, and a backlog nobody works on as danger', () => {
    expect(workersStatus([{ backlog: 999, workers: 1 }])).toBe('normal');
    expect(
      workersStatus([
        { backlog: 600, workers: 1 },
        { backlog: 400, workers: 2 },
      ]),
    ).toBe('warning');
    expect(workersStatus([{ backlog: 5000, workers: 3 }])).toBe('danger');
    expect(workersStatus([{ backlog: 1, workers: 0 }])).toBe('danger');
    expect(workersStatus([{ backlog: 0, workers: 0 }])).toBe('normal');
    expect(worst(['normal', 'warning', 'normal'])).toBe('warning');
    expect(worst(['warning', 'danger'])).toBe('danger');
    expect(worst([])).toBe('normal');
  });
});
