#!/usr/bin/env node
// Container health probe for the platform images: Node built-ins only, no binaries to download.
//
//   node healthcheck.mjs http [url]            GET url, healthy on a 2xx answer.
//                                              url defaults to http://127.0.0.1:$HTTP_PORT/api/v1/health
//   node healthcheck.mjs grpc [host:port] [service]
//                                              grpc.health.v1.Health/Check over cleartext HTTP/2,
//                                              healthy when the answer is SERVING. host:port defaults to
//                                              127.0.0.1:$GRPC_PORT, service to "" (the whole server).
//   node healthcheck.mjs auto                  the image's own probe: http for PLATFORM_SERVICE=gateway,
//                                              grpc for every other service (the one Dockerfile's
//                                              HEALTHCHECK, which cannot depend on a build argument).
//
// Exit code 0 = healthy, 1 = unhealthy (with one line on stderr saying why). Times out after
// HEALTHCHECK_TIMEOUT_MS (default 3000). Kubernetes does not use this: it probes natively (httpGet / grpc).
import http2 from 'node:http2';

const TIMEOUT_MS = Number(process.env.HEALTHCHECK_TIMEOUT_MS ?? 3000);
const SERVING = 1;
const STATUS_NAMES = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

function fail(message) {
  console.error(`unhealthy: ${message}`);
  process.exit(1);
}

async function checkHttp(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (res.status < 200 || res.status > 299) fail(`GET ${url} answered ${res.status}`);
}

// HealthCheckRequest { string service = 1; } as a length-prefixed gRPC message.
function encodeRequest(service) {
  const name = Buffer.from(service, 'utf8');
  if (name.length > 127) throw new Error('service name too long for this probe');
  const body = name.length === 0 ? Buffer.alloc(0) : Buffer.concat([Buffer.from([0x0a, name.length]), name]);
  const frame = Buffer.alloc(5 + body.length);
  frame.writeUInt8(0, 0); // not compressed
  frame.writeUInt32BE(body.length, 1);
  body.copy(frame, 5);
  return frame;
}

function readVarint(buf, pos) {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (pos >= buf.length) throw new Error('truncated varint');
    const byte = buf[pos++];
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return [value, pos];
    shift += 7;
  }
}

// HealthCheckResponse { ServingStatus status = 1; } -> status number (absent field = 0 = UNKNOWN).
function decodeStatus(frame) {
  if (frame.length < 5) throw new Error('short gRPC message');
  if (frame[0] !== 0) throw new Error('compressed gRPC message not supported');
  const msg = frame.subarray(5, 5 + frame.readUInt32BE(1));
  let status = 0;
  let pos = 0;
  while (pos < msg.length) {
    let key;
    [key, pos] = readVarint(msg, pos);
    const wire = key & 7;
    if (wire === 0) {
      let v;
      [v, pos] = readVarint(msg, pos);
      if (key >>> 3 === 1) status = v;
    } else if (wire === 2) {
      let len;
      [len, pos] = readVarint(msg, pos);
      pos += len;
    } else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else throw new Error(`unexpected wire type ${wire}`);
  }
  return status;
}

function checkGrpc(target, service) {
  return new Promise((resolve, reject) => {
    const client = http2.connect(`http://${target}`);
    const timer = setTimeout(() => {
      client.destroy();
      reject(new Error(`no answer from ${target} within ${TIMEOUT_MS} ms`));
    }, TIMEOUT_MS);
    const done = (err) => {
      clearTimeout(timer);
      client.close();
      if (err) reject(err);
      else resolve();
    };
    client.on('error', done);

    const req = client.request({
      ':method': 'POST',
      ':path': '/grpc.health.v1.Health/Check',
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    const chunks = [];
    let grpcStatus;
    let grpcMessage = '';
    const takeStatus = (headers) => {
      if (headers['grpc-status'] !== undefined) {
        grpcStatus = Number(headers['grpc-status']);
        grpcMessage = decodeURIComponent(String(headers['grpc-message'] ?? ''));
      }
    };
    req.on('response', takeStatus); // trailers-only answers carry grpc-status in the headers
    req.on('trailers', takeStatus);
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('error', done);
    req.on('end', () => {
      try {
        if (grpcStatus === undefined) throw new Error('answer without grpc-status');
        if (grpcStatus !== 0) throw new Error(`grpc-status ${grpcStatus} ${grpcMessage}`.trim());
        const status = decodeStatus(Buffer.concat(chunks));
        if (status !== SERVING) throw new Error(`health status ${STATUS_NAMES[status] ?? status}`);
        done();
      } catch (err) {
        done(err);
      }
    });
    req.end(encodeRequest(service));
  });
}

const [requested, arg, service = ''] = process.argv.slice(2);
let mode = requested;
if (mode === 'auto') {
  const name = process.env.PLATFORM_SERVICE ?? fail('PLATFORM_SERVICE is not set');
  mode = name === 'gateway' ? 'http' : 'grpc';
}
try {
  if (mode === 'http') {
    await checkHttp(arg ?? `http://127.0.0.1:${process.env.HTTP_PORT ?? 8080}/api/v1/health`);
  } else if (mode === 'grpc') {
    const target = arg ?? `127.0.0.1:${process.env.GRPC_PORT ?? fail('GRPC_PORT is not set')}`;
    await checkGrpc(target, service);
  } else {
    fail(`usage: healthcheck.mjs http [url] | grpc [host:port] [service] | auto`);
  }
} catch (err) {
  const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
  fail(err instanceof Error ? `${err.message}${cause}` : String(err));
}
process.exit(0);
