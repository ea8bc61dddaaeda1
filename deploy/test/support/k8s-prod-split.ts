// The production overlay's API/worker split (PROCESS_ROLE, KEDA ScaledObjects on consumer lag), the
// Jobs before a rollout (migrate per service, kafka-topics) and the production settings every
// service reads (MIGRATE_ON_START, KAFKA_TOPIC_MODE, TRUST_PROXY). Each check returns its problems.
import {
  byKind,
  effectiveEnv,
  MIGRATING_SERVICES,
  named,
  SPLIT_SERVICES,
  WORKER_LAG,
  type Obj,
} from './k8s-prod.js';
import { isTrustedProxySetting } from './k8s.js';
import { SANDBOX_WORKER, SERVICES } from './topology.js';

const container = (o: Obj | undefined): Obj | undefined => o?.spec?.template?.spec?.containers?.[0];
const envOf = (c: Obj | undefined, name: string) =>
  (c?.env ?? []).find((e: Obj) => e.name === name)?.value as string | undefined;
/** Variables that may differ between an API and its worker: the role and the workers' own settings. */
const ROLE_SETTINGS = new Set(['PROCESS_ROLE', 'UV_THREADPOOL_SIZE', 'RUN_WORKER_DRAIN_MS']);
const withoutRole = (c: Obj | undefined) =>
  JSON.stringify((c?.env ?? []).filter((e: Obj) => !ROLE_SETTINGS.has(e.name)));
const selects = (selector: Obj | undefined, labels: Obj | undefined) =>
  !!selector &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** workflows, notifications, observability: an API (PROCESS_ROLE=api) and a worker Deployment. */
export function checkWorkerSplit(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const service of SPLIT_SERVICES) {
    const api = named(objects, 'Deployment', service);
    const worker = named(objects, 'Deployment', `${service}-worker`);
    if (!worker) {
      problems.push(`no Deployment ${service}-worker`);
      continue;
    }
    const [a, w] = [container(api), container(worker)];
    if (envOf(a, 'PROCESS_ROLE') !== 'api') problems.push(`${service} does not run PROCESS_ROLE=api`);
    if (envOf(w, 'PROCESS_ROLE') !== 'worker')
      problems.push(`${service}-worker does not run PROCESS_ROLE=worker`);
    if (a?.image !== w?.image)
      problems.push(`${service}-worker runs ${w?.image}, not the image of ${service}`);
    if (withoutRole(a) !== withoutRole(w))
      problems.push(`${service}-worker's environment differs from ${service}'s (beyond the role settings)`);
    if (JSON.stringify(a?.envFrom) !== JSON.stringify(w?.envFrom))
      problems.push(`${service}-worker loads other ConfigMaps or Secrets than ${service}`);
    if (!w?.readinessProbe?.grpc || !w?.livenessProbe?.grpc)
      problems.push(`${service}-worker is not probed on grpc.health.v1`);
    const labels = worker.spec?.template?.metadata?.labels;
    for (const svc of byKind(objects, 'Service'))
      if (selects(svc.spec?.selector, labels))
        problems.push(`Service ${svc.metadata?.name} selects ${service}-worker`);
    const pdb = byKind(objects, 'PodDisruptionBudget').find((p) =>
      selects(p.spec?.selector?.matchLabels, labels),
    );
    if (!pdb) problems.push(`${service}-worker has no PodDisruptionBudget`);
    if (
      byKind(objects, 'HorizontalPodAutoscaler').some(
        (h) => h.spec?.scaleTargetRef?.name === `${service}-worker`,
      )
    )
      problems.push(`${service}-worker has an HPA beside its ScaledObject`);
  }
  return problems;
}

/** A KEDA ScaledObject per worker, on an existing Deployment, on its group's lag, with SASL auth. */
export function checkScaledObjects(objects: Obj[]): string[] {
  const problems: string[] = [];
  const scaled = byKind(objects, 'ScaledObject');
  for (const so of scaled) {
    const target = so.spec?.scaleTargetRef ?? {};
    if ((target.kind ?? 'Deployment') !== 'Deployment' || !named(objects, 'Deployment', target.name))
      problems.push(
        `ScaledObject ${so.metadata?.name} targets no Deployment of the overlay (${target.name})`,
      );
    const [min, max] = [so.spec?.minReplicaCount ?? 0, so.spec?.maxReplicaCount ?? 100];
    if (!(min >= 1 && max >= min))
      problems.push(`ScaledObject ${so.metadata?.name} has replicas ${min}..${max}`);
    for (const trigger of so.spec?.triggers ?? []) {
      const auth = trigger.authenticationRef?.name;
      if (!byKind(objects, 'TriggerAuthentication').some((t) => t.metadata?.name === auth))
        problems.push(`ScaledObject ${so.metadata?.name} uses no TriggerAuthentication of the overlay`);
      if (!trigger.metadata?.bootstrapServers || !(Number(trigger.metadata?.lagThreshold) > 0))
        problems.push(`ScaledObject ${so.metadata?.name} has no brokers or lag threshold`);
    }
  }
  for (const [worker, lag] of Object.entries(WORKER_LAG)) {
    const so = scaled.find((s) => s.spec?.scaleTargetRef?.name === worker);
    const kafka = (so?.spec?.triggers ?? []).filter((t: Obj) => t.type === 'kafka');
    const topics = kafka
      .filter((t: Obj) => t.metadata?.consumerGroup === lag.group)
      .map((t: Obj) => t.metadata?.topic);
    if (!so || JSON.stringify(topics.sort()) !== JSON.stringify([...lag.topics].sort()))
      problems.push(`${worker} does not scale on the lag of ${lag.group} on ${lag.topics.join(', ')}`);
  }
  return problems;
}

/** `<service>-migrate` per service with a store and the `kafka-topics` Job, with the right args. */
export function checkJobs(objects: Obj[]): string[] {
  const problems: string[] = [];
  const expect = (name: string, image: string, command: string, secret: string) => {
    const job = named(objects, 'Job', name);
    const c = container(job);
    if (!job) return problems.push(`no Job ${name}`);
    if (JSON.stringify(c?.args) !== JSON.stringify(['node', 'dist/main.js', command]))
      problems.push(`Job ${name} args ${JSON.stringify(c?.args)}, expected node dist/main.js ${command}`);
    if (!String(c?.image).includes(`/agent-platform/${image}@`))
      problems.push(`Job ${name} runs ${c?.image}`);
    const secrets = (c?.env ?? []).map((e: Obj) => e.valueFrom?.secretKeyRef?.name).filter(Boolean);
    if (!secrets.includes(secret)) problems.push(`Job ${name} does not read Secret ${secret}`);
    const spec = job.spec ?? {};
    if (
      spec.template?.spec?.restartPolicy !== 'Never' ||
      !(spec.backoffLimit >= 0) ||
      !spec.activeDeadlineSeconds
    )
      problems.push(`Job ${name} lacks restartPolicy Never, backoffLimit or activeDeadlineSeconds`);
    if (!(spec.ttlSecondsAfterFinished > 0)) problems.push(`Job ${name} is never cleaned up`);
    return undefined;
  };
  for (const service of MIGRATING_SERVICES)
    expect(`${service}-migrate`, service, 'migrate', `${service}-database-migration`);
  expect('kafka-topics', 'identity', 'kafka-topics', 'platform-kafka-admin');
  // The migration role is the Jobs' alone: no Deployment reads it.
  for (const d of byKind(objects, 'Deployment'))
    for (const e of container(d)?.env ?? [])
      if (/-database-migration$|^platform-kafka-admin$/.test(e.valueFrom?.secretKeyRef?.name ?? ''))
        problems.push(`Deployment ${d.metadata?.name} reads ${e.valueFrom.secretKeyRef.name}`);
  return problems;
}

/** Every Deployment starts without migrating or creating topics; the gateway trusts CIDRs. */
export function checkProductionEnv(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const d of byKind(objects, 'Deployment')) {
    const c = container(d)!;
    // The sandbox worker has no schema to migrate (and takes only the keys it reads).
    const migrates = d.metadata?.name !== SANDBOX_WORKER;
    if (migrates && effectiveEnv(objects, c, 'MIGRATE_ON_START') !== 'false')
      problems.push(`Deployment ${d.metadata?.name} does not set MIGRATE_ON_START=false`);
    if (effectiveEnv(objects, c, 'KAFKA_TOPIC_MODE') !== 'verify')
      problems.push(`Deployment ${d.metadata?.name} does not set KAFKA_TOPIC_MODE=verify`);
  }
  const gateway = container(named(objects, 'Deployment', 'gateway'));
  const trust = gateway ? effectiveEnv(objects, gateway, 'TRUST_PROXY') : undefined;
  if (trust === '1' || !isTrustedProxySetting(trust))
    problems.push(`gateway TRUST_PROXY=${trust}, expected the proxies' address range(s)`);
  if (SERVICES.some((s) => !named(objects, 'Deployment', s.name)))
    problems.push('a service has no Deployment');
  return problems;
}
