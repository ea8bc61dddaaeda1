import { describe, expect, it } from 'vitest';
import { permanentFailure, transientFailure } from '../src/domain/delivery/delivery-ports.js';
import { isVendorThrottle } from '../src/domain/delivery/delivery-telemetry.js';
import { DINGTALK_THROTTLE_MS } from '../src/adapters/channels/dingtalk.js';

describe('which failures count as a vendor rate limit', () => {
  it('HTTP 429 (with or without Retry-After) and throttle codes do', () => {
    expect(
      isVendorThrottle(transientFailure('delivery_http_status', { status: 429, detail: '' }, 30_000)),
    ).toBe(true);
    expect(isVendorThrottle(transientFailure('delivery_http_status', { status: 429, detail: '' }))).toBe(
      true,
    );
    const throttled = transientFailure(
      'delivery_vendor_rejected',
      { channel: 'dingtalk', code: 130101, detail: '' },
      DINGTALK_THROTTLE_MS,
    );
    expect(isVendorThrottle(throttled)).toBe(true);
  });

  it('other transient failures (503 with Retry-After, busy vendor, timeouts) and permanent ones do not', () => {
    expect(
      isVendorThrottle(transientFailure('delivery_http_status', { status: 503, detail: '' }, 5_000)),
    ).toBe(false);
    expect(
      isVendorThrottle(
        transientFailure('delivery_vendor_rejected', { channel: 'wechat', code: -1, detail: '' }),
      ),
    ).toBe(false);
    expect(isVendorThrottle(transientFailure('delivery_timeout', { seconds: 10 }))).toBe(false);
    expect(isVendorThrottle(permanentFailure('delivery_http_status', { status: 429, detail: '' }))).toBe(
      false,
    );
  });
});
