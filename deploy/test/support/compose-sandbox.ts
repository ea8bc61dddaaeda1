// The sandbox worker in deploy/docker-compose.yml (issue 24): the workflows image with
// PROCESS_ROLE=sandbox, only the variables it reads (no store, key, service address or trace
// endpoint), and alone with Kafka on an internal network. Returns every problem it finds.
import { composeEnv, type ComposeFile } from './compose.js';
import { FORBIDDEN_SANDBOX_ENV, SANDBOX_ENV } from './k8s-sandbox.js';
import { METRICS_PORT, SANDBOX_GRPC_PORT, SANDBOX_WORKER } from './topology.js';

type Networks = Record<string, { internal?: boolean } | null>;
export type ComposeWithNetworks = ComposeFile & { networks?: Networks };

/** A service's networks (compose's list or map form); `default` when it names none. */
function networksOf(svc: unknown): string[] {
  const networks = (svc as { networks?: string[] | Record<string, unknown> }).networks;
  if (!networks) return ['default'];
  return Array.isArray(networks) ? networks : Object.keys(networks);
}

export function checkComposeSandbox(compose: ComposeWithNetworks): string[] {
  const services = compose.services ?? {};
  const svc = services[SANDBOX_WORKER];
  const where = `compose: ${SANDBOX_WORKER}`;
  if (!svc) return [`${where} missing`];
  const problems: string[] = [];
  if (!svc.image || svc.image !== services.workflows?.image || svc.build || svc.command)
    problems.push(`${where} does not run the workflows image (${svc.image}) as it is`);
  const env = composeEnv(svc);
  for (const name of Object.keys(env)) {
    if (FORBIDDEN_SANDBOX_ENV.some((re) => re.test(name))) problems.push(`${where} is given ${name}`);
    else if (!SANDBOX_ENV.includes(name)) problems.push(`${where} is given ${name}, which it does not read`);
  }
  if (env.PROCESS_ROLE !== 'sandbox') problems.push(`${where} does not run PROCESS_ROLE=sandbox`);
  if (Number(env.GRPC_PORT) !== SANDBOX_GRPC_PORT)
    problems.push(`${where} GRPC_PORT=${env.GRPC_PORT}, expected ${SANDBOX_GRPC_PORT}`);
  if (env.KAFKA_BROKERS !== composeEnv(services.workflows ?? {}).KAFKA_BROKERS)
    problems.push(`${where} KAFKA_BROKERS is not the services' brokers`);
  const exposed = (svc.expose ?? []).map(String).sort();
  if (JSON.stringify(exposed) !== JSON.stringify([String(SANDBOX_GRPC_PORT), String(METRICS_PORT)]))
    problems.push(`${where} exposes ${exposed}, expected ${SANDBOX_GRPC_PORT} and ${METRICS_PORT}`);
  const hc = svc.healthcheck?.test;
  if (!(Array.isArray(hc) ? hc.join(' ') : String(hc ?? '')).includes('healthcheck.mjs grpc'))
    problems.push(`${where} healthcheck is not healthcheck.mjs grpc`);
  const deps = svc.depends_on;
  const kafkaDep = Array.isArray(deps) ? undefined : deps?.kafka?.condition;
  if (kafkaDep !== 'service_healthy') problems.push(`${where} does not depend on kafka being healthy`);
  // Its networks: each internal, shared with Kafka and nobody else.
  const own = networksOf(svc);
  for (const network of own) {
    if (compose.networks?.[network]?.internal !== true)
      problems.push(`${where} is on network ${network}, which is not internal`);
    const members = Object.keys(services).filter((name) => networksOf(services[name]).includes(network));
    const others = members.filter((name) => name !== SANDBOX_WORKER && name !== 'kafka');
    if (others.length > 0) problems.push(`${where} shares network ${network} with ${others.join(', ')}`);
    if (!members.includes('kafka')) problems.push(`${where} cannot reach kafka on network ${network}`);
  }
  const raw = svc as { read_only?: boolean; security_opt?: string[] };
  if (raw.read_only !== true || !(raw.security_opt ?? []).includes('no-new-privileges:true'))
    problems.push(`${where} is not read-only with no-new-privileges`);
  return problems;
}
