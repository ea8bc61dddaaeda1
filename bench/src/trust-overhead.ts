// What the trust checks (docs/security.md) add to a call: the token operations on their own, then
// ProbeService.Echo over real gRPC (in-process client and server, sequential calls) without a
// principal, with the same signed principal on every call (the gateway's reused signature and the
// service's cached verification), and with a new principal on every call (one Ed25519 signature
// and one verification per call, the worst case). Run: node bench/dist/trust-overhead.js [--calls N]
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { conformanceV1 } from '@platform/contracts';
import {
  createOutgoingTrust,
  createServerTrust,
  createServiceClient,
  principalDigest,
  PrincipalSigner,
  PrincipalVerifier,
  ServiceTokenSigner,
  ServiceTokenVerifier,
  toMetadata,
  type Principal,
} from '@platform/grpc';
import { createLogger } from '@platform/logger';
import { servicePublicKey, stackEnv } from '@platform/testing';
import { startProbeService } from './probe/index.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '3000' } } });
const calls = Number(values.calls);

function summarize(samplesMs: number[]) {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const mean = sorted.reduce((sum, v) => sum + v, 0) / sorted.length;
  return { mean, p50: at(0.5), p99: at(0.99) };
}

async function timeEach(count: number, op: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await op(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

const principal = (i: number): Principal => ({
  user_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  username: `bench_${i}`,
  is_superuser: false,
  permissions: ['probe:read', 'workflow:execute', 'apikey:read'],
  team_ids: ['11111111-1111-4111-8111-111111111111'],
  auth_method: 'jwt',
});
const bytesOf = (p: Principal) => Buffer.from(JSON.stringify(p), 'utf8');
const us = (ms: number) => (ms * 1000).toFixed(1);

// --- token operations on their own (µs per operation) -------------------------------------------
const ops = 2000;
const signer = new PrincipalSigner(stackEnv.principalSigningPrivateKey);
const verifier = new PrincipalVerifier('probe', stackEnv.principalSigningPublicKey);
const principals = Array.from({ length: ops }, (_, i) => bytesOf(principal(i)));
const signCold = await timeEach(ops, (i) => signer.sign('probe', principals[i]!));
const tokens = await Promise.all(principals.map((b) => signer.sign('probe', b)));
const verifyCold = await timeEach(ops, (i) => verifier.verify(tokens[i], principals[i]!));
const verifyWarm = await timeEach(ops, () => verifier.verify(tokens[0], principals[0]!));
const digest = await timeEach(ops, async (i) => principalDigest(principals[i]!));
const gatewayServiceKey = stackEnv.serviceSigningKey('gateway');
const serviceSigner = new ServiceTokenSigner('gateway', gatewayServiceKey, 60);
const serviceVerifier = new ServiceTokenVerifier('probe', { gateway: servicePublicKey('gateway') });
// Distinct tokens (each its own lifetime), so every verification below is a cache miss.
const serviceTokens = await Promise.all(
  Array.from({ length: ops }, (_, i) =>
    new ServiceTokenSigner('gateway', gatewayServiceKey, 60 + i).token('probe'),
  ),
);
const serviceCold = await timeEach(ops, (i) => serviceVerifier.verify(serviceTokens[i]));
const serviceWarm = await timeEach(ops, () => serviceVerifier.verify(serviceTokens[0]));
const serviceSignWarm = await timeEach(ops, () => serviceSigner.token('probe'));

// The whole per-call work with warm caches: the gateway's client adding both credentials, and the
// service checking them (what a call with the same principal costs on each side).
const outgoing = createOutgoingTrust({
  service: 'gateway',
  serviceSigningKey: gatewayServiceKey,
  principalSigningKey: stackEnv.principalSigningPrivateKey,
}).to('probe');
const serverTrust = createServerTrust({
  audience: 'probe',
  principalPublicKeys: stackEnv.principalSigningPublicKey,
  callerKeys: { gateway: servicePublicKey('gateway') },
});
const callMetadata = () => toMetadata({ requestId: 'bench', principal: principal(0) });
const sample = callMetadata();
await outgoing.apply(sample);
const applyWarm = await timeEach(ops, async () => outgoing.apply(callMetadata()));
const authenticateWarm = await timeEach(ops, () => serverTrust.authenticate(sample, ['gateway']));

console.log(`\nToken operations, ${ops} each, µs per operation (mean / p50 / p99)\n`);
console.log('| operation | mean µs | p50 µs | p99 µs |\n|---|---|---|---|');
for (const [name, samples] of [
  ['principal signature: sign (Ed25519, cache miss)', signCold],
  ['principal signature: verify (Ed25519, cache miss)', verifyCold],
  ['principal signature: verify (cached token) + digest', verifyWarm],
  ['principal digest alone (SHA-256 of the bytes)', digest],
  ['service token: verify (Ed25519, cache miss)', serviceCold],
  ['service token: verify (cached token)', serviceWarm],
  ['service token: sign (reused token)', serviceSignWarm],
  ['client: add both credentials to a call (warm)', applyWarm],
  ['server: check principal + service token (warm)', authenticateWarm],
] as const) {
  const s = summarize(samples);
  console.log(`| ${name} | ${us(s.mean)} | ${us(s.p50)} | ${us(s.p99)} |`);
}

// --- over gRPC ----------------------------------------------------------------------------------
const logger = createLogger('bench-trust', 'warn');
const probe = await startProbeService(stackEnv.databaseUrl, logger);
const gateway = createOutgoingTrust({
  service: 'gateway',
  serviceSigningKey: gatewayServiceKey,
  principalSigningKey: stackEnv.principalSigningPrivateKey,
});
const plain = createServiceClient(
  conformanceV1.ProbeServiceService,
  'platform.conformance.v1.ProbeService',
  probe.address,
);
const signed = createServiceClient(
  conformanceV1.ProbeServiceService,
  'platform.conformance.v1.ProbeService',
  probe.address,
  { credentials: gateway.to('probe') },
);
const echo = { text: 'bench', delay_ms: 0, include_principal: true };
const same = principal(0);
let fresh = 1_000_000;
const modes = {
  'no principal, no credentials (baseline)': () => plain.call('echo', echo),
  'no principal, service token only': () => signed.call('echo', echo),
  'same principal every call (signature reused, verification cached)': () =>
    signed.call('echo', echo, { principal: same }),
  'new principal every call (sign + verify per call)': () =>
    signed.call('echo', echo, { principal: principal(fresh++) }),
};
try {
  const runs = Object.entries(modes);
  for (const [, run] of runs) await timeEach(500, run); // warm-up (JIT, connections)
  // Interleaved (one call of each mode in turn), so every mode sees the same machine load.
  const samples = runs.map((): number[] => []);
  for (let i = 0; i < calls; i++) {
    for (const [index, [, run]] of runs.entries()) samples[index]!.push(...(await timeEach(1, run)));
  }
  const results = runs.map(([name], index) => [name, summarize(samples[index]!)] as const);
  const base = results[0]![1];
  console.log(`\nProbeService.Echo over gRPC, ${calls} sequential calls per mode (interleaved), ms\n`);
  console.log('| mode | mean ms | p50 ms | p99 ms | added p50 µs |\n|---|---|---|---|---|');
  for (const [index, [name, s]] of results.entries()) {
    const added = index === 0 ? '—' : us(s.p50 - base.p50);
    console.log(`| ${name} | ${s.mean.toFixed(3)} | ${s.p50.toFixed(3)} | ${s.p99.toFixed(3)} | ${added} |`);
  }
} finally {
  plain.close();
  signed.close();
  await probe.stop();
}
