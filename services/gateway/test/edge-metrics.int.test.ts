import { randomUUID } from 'node:crypto';
import { metricValue, scrapeMetrics, stackEnv, type MetricSample } from '@platform/testing';
import { describe, expect, it } from 'vitest';

// The running platform (deploy/local/services.sh): the gateway's metrics port is not its public one.
const gatewayMetrics = `http://127.0.0.1:${process.env.GATEWAY_METRICS_PORT ?? '9470'}/metrics`;
const identityMetrics = `http://127.0.0.1:${process.env.IDENTITY_METRICS_PORT ?? '9471'}/metrics`;
const api = `${stackEnv.gatewayUrl}/api/v1`;

const CAPTCHA = { route: '/api/v1/captcha', method: 'GET', status: '200', code_class: 'ok' };
const CREATE_CAPTCHA = { grpc_service: 'platform.identity.v1.CaptchaService', grpc_method: 'CreateCaptcha' };

describe('edge and gRPC metrics of the running platform', () => {
  it('are not on the public port', async () => {
    for (const path of ['/metrics', '/api/v1/metrics']) {
      const response = await fetch(`${stackEnv.gatewayUrl}${path}`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { code: number }).code).toBe(4000);
    }
  });

  it('count each request by route template, and the gRPC calls it made on both sides', async () => {
    const before = await scrapeMetrics(gatewayMetrics);
    const identityBefore = await scrapeMetrics(identityMetrics);
    const calls = 5;
    for (let i = 0; i < calls; i++) expect((await fetch(`${api}/captcha`)).status).toBe(200);

    const after = await scrapeMetrics(gatewayMetrics);
    const delta = (name: string, labels: Record<string, string>) =>
      metricValue(after, name, labels) - metricValue(before, name, labels);
    expect(delta('http_server_request_duration_seconds_count', CAPTCHA)).toBe(calls);
    // Every observation lands in the +Inf bucket and in a bucket of at most 10 s.
    expect(delta('http_server_request_duration_seconds_bucket', { ...CAPTCHA, le: '10' })).toBe(calls);
    expect(delta('grpc_client_handling_seconds_count', { ...CREATE_CAPTCHA, grpc_code: 'OK' })).toBe(calls);

    const identityAfter = await scrapeMetrics(identityMetrics);
    const served = { ...CREATE_CAPTCHA, grpc_code: 'OK', service: 'identity' };
    expect(
      metricValue(identityAfter, 'grpc_server_handling_seconds_count', served) -
        metricValue(identityBefore, 'grpc_server_handling_seconds_count', served),
    ).toBe(calls);
  });

  it('put requests that match no route under one series, never their raw path', async () => {
    const unmatched = { route: 'unmatched', method: 'GET', status: '404', code_class: '4xxx' };
    const before = await scrapeMetrics(gatewayMetrics);
    const marker = randomUUID();
    for (let i = 0; i < 3; i++) await fetch(`${api}/no-such-${marker}-${i}`);
    const after = await scrapeMetrics(gatewayMetrics);
    expect(
      metricValue(after, 'http_server_request_duration_seconds_count', unmatched) -
        metricValue(before, 'http_server_request_duration_seconds_count', unmatched),
    ).toBe(3);
    expect(
      after.some((sample: MetricSample) => Object.values(sample.labels).some((v) => v.includes(marker))),
    ).toBe(false);
  });

  it('label an envelope error by its code class', async () => {
    const refused = { route: '/api/v1/users/me', method: 'GET', status: '401' };
    const before = await scrapeMetrics(gatewayMetrics);
    const response = await fetch(`${api}/users/me`);
    expect(response.status).toBe(401);
    const { code } = (await response.json()) as { code: number };
    const after = await scrapeMetrics(gatewayMetrics);
    const labels = { ...refused, code_class: `${Math.floor(code / 1000)}xxx` };
    expect(
      metricValue(after, 'http_server_request_duration_seconds_count', labels) -
        metricValue(before, 'http_server_request_duration_seconds_count', labels),
    ).toBe(1);
  });
});
