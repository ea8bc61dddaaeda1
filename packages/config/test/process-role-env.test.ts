import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commonShape, loadConfig, processRoleShape, runsWorkers, servesApi } from '../src/index.js';

const withWorkers = (source: Record<string, string>) =>
  loadConfig('svc', z.object({ ...commonShape, ...processRoleShape }), source);
const apiOnly = (source: Record<string, string>) => loadConfig('svc', z.object(commonShape), source);

describe('PROCESS_ROLE and SHUTDOWN_DELAY_MS', () => {
  it('defaults to all (one process runs everything) and takes api and worker where a service has workers', () => {
    expect(withWorkers({}).PROCESS_ROLE).toBe('all');
    expect(withWorkers({ PROCESS_ROLE: 'api' }).PROCESS_ROLE).toBe('api');
    expect(withWorkers({ PROCESS_ROLE: 'worker' }).PROCESS_ROLE).toBe('worker');
    expect(() => withWorkers({ PROCESS_ROLE: 'scheduler' })).toThrow(
      /PROCESS_ROLE.*must be all, api or worker/,
    );
  });

  it('a service without workers takes all and api, and refuses worker naming the variable', () => {
    expect(apiOnly({}).PROCESS_ROLE).toBe('all');
    expect(apiOnly({ PROCESS_ROLE: 'api' }).PROCESS_ROLE).toBe('api');
    expect(() => apiOnly({ PROCESS_ROLE: 'worker' })).toThrow(/PROCESS_ROLE.*no separate workers/);
  });

  it('says which role serves the API and which runs the workers', () => {
    expect([servesApi('all'), servesApi('api'), servesApi('worker')]).toEqual([true, true, false]);
    expect([runsWorkers('all'), runsWorkers('api'), runsWorkers('worker')]).toEqual([true, false, true]);
  });

  it('waits nothing by default before draining, and at most a minute', () => {
    expect(apiOnly({}).SHUTDOWN_DELAY_MS).toBe(0);
    expect(apiOnly({ SHUTDOWN_DELAY_MS: '5000' }).SHUTDOWN_DELAY_MS).toBe(5_000);
    expect(() => apiOnly({ SHUTDOWN_DELAY_MS: '-1' })).toThrow(/SHUTDOWN_DELAY_MS/);
    expect(() => apiOnly({ SHUTDOWN_DELAY_MS: '60001' })).toThrow(/SHUTDOWN_DELAY_MS/);
  });
});
