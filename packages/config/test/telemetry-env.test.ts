import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig, telemetryShape } from '../src/index.js';

const load = (source: Record<string, string>) => loadConfig('svc', z.object(telemetryShape), source);

describe('telemetry variables', () => {
  it('turns telemetry on unless TELEMETRY_ENABLED says otherwise', () => {
    expect(load({}).TELEMETRY_ENABLED).toBe(true);
    expect(load({ TELEMETRY_ENABLED: 'false' }).TELEMETRY_ENABLED).toBe(false);
    expect(load({ TELEMETRY_ENABLED: '0' }).TELEMETRY_ENABLED).toBe(false);
    expect(load({ TELEMETRY_ENABLED: 'true' }).TELEMETRY_ENABLED).toBe(true);
  });

  it('refuses a switch that is neither true nor false', () => {
    expect(() => load({ TELEMETRY_ENABLED: 'maybe' })).toThrow(/TELEMETRY_ENABLED/);
  });
});
