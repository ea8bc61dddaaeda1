// deploy/docker/healthcheck.mjs (the images' HEALTHCHECK) against real local HTTP and gRPC health
// servers, in both modes.
import { spawn } from 'node:child_process';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HEALTHCHECK_SCRIPT } from './support/topology.js';

function runNode(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, {
      env: { PATH: process.env.PATH ?? '', HEALTHCHECK_TIMEOUT_MS: '2000', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stderr }));
  });
}

// Each case starts node several times: generous timeouts for a loaded 2-core machine.
describe('healthcheck.mjs', { timeout: 30_000 }, () => {
  // A gRPC health server speaking the wire protocol directly (h2c, length-prefixed protobuf).
  async function withGrpcHealthServer(
    statuses: Record<string, number>,
    run: (port: number) => Promise<void>,
  ) {
    const server = http2.createServer();
    server.on('stream', (stream, headers) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const body = Buffer.concat(chunks).subarray(5);
        const service =
          body.length > 2 && body[0] === 0x0a ? body.subarray(2, 2 + (body[1] ?? 0)).toString() : '';
        const status = headers[':path'] === '/grpc.health.v1.Health/Check' ? statuses[service] : undefined;
        if (status === undefined) {
          stream.respond(
            { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '5' },
            { endStream: true },
          );
          return;
        }
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(Buffer.from([0, 0, 0, 0, 2, 0x08, status]));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      await run((server.address() as AddressInfo).port);
    } finally {
      await new Promise((r) => server.close(r));
    }
  }

  it('grpc mode: healthy only when the server answers SERVING', async () => {
    await withGrpcHealthServer({ '': 1, down: 2 }, async (port) => {
      expect((await runNode([HEALTHCHECK_SCRIPT, 'grpc'], { GRPC_PORT: String(port) })).code).toBe(0);
      const down = await runNode([HEALTHCHECK_SCRIPT, 'grpc', `127.0.0.1:${port}`, 'down']);
      expect(down).toMatchObject({ code: 1, stderr: expect.stringMatching(/NOT_SERVING/) });
      const unknown = await runNode([HEALTHCHECK_SCRIPT, 'grpc', `127.0.0.1:${port}`, 'nope']);
      expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/grpc-status 5/) });
    });
  });

  it('grpc mode: nothing listening is unhealthy', async () => {
    const refused = await runNode([HEALTHCHECK_SCRIPT, 'grpc', '127.0.0.1:1']);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('http mode: healthy only on a 2xx from /api/v1/health', async () => {
    const server = http.createServer((req, res) => {
      res.statusCode = req.url === '/api/v1/health' ? 200 : 503;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      expect((await runNode([HEALTHCHECK_SCRIPT, 'http'], { HTTP_PORT: String(port) })).code).toBe(0);
      expect((await runNode([HEALTHCHECK_SCRIPT, 'http', `http://127.0.0.1:${port}/down`])).code).toBe(1);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('auto mode: http for PLATFORM_SERVICE=gateway, grpc for every other service', async () => {
    const server = http.createServer((req, res) => {
      res.statusCode = req.url === '/api/v1/health' ? 200 : 503;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const httpPort = String((server.address() as AddressInfo).port);
    try {
      await withGrpcHealthServer({ '': 1 }, async (grpcPort) => {
        const ports = { HTTP_PORT: httpPort, GRPC_PORT: String(grpcPort) };
        const auto = (service: string, env = ports) =>
          runNode([HEALTHCHECK_SCRIPT, 'auto'], { PLATFORM_SERVICE: service, ...env });
        expect((await auto('gateway')).code).toBe(0);
        expect((await auto('identity')).code).toBe(0);
        // Each mode probes its own port: swapped, both fail.
        const swapped = { HTTP_PORT: String(grpcPort), GRPC_PORT: httpPort };
        expect((await auto('gateway', swapped)).code).toBe(1);
        expect((await auto('observability', swapped)).code).toBe(1);
      });
    } finally {
      await new Promise((r) => server.close(r));
    }
    const unset = await runNode([HEALTHCHECK_SCRIPT, 'auto'], { GRPC_PORT: '1' });
    expect(unset).toMatchObject({ code: 1, stderr: expect.stringMatching(/PLATFORM_SERVICE is not set/) });
  });
});
