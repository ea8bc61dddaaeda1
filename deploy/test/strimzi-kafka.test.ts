// The Strimzi component (deploy/k8s/components/strimzi-kafka): generated from the topic catalog
// (a stale file fails), rendered by kustomize inside an overlay, and validated strictly by
// kubeconform against Strimzi's own CRD schemas (KafkaTopic, KafkaUser; install-strimzi-crds.sh).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  catalogWithDeadLetters,
  KAFKA_SERVICES,
  TOPIC_CATALOG,
  topicsOfService,
  type KafkaService,
} from '../../packages/kafka/src/index.js';
import type { K8sObject } from './support/k8s.js';
import { kubeconform, validateWithKubeconform } from './support/kubeconform.js';
import { renderKustomization } from './support/kubectl.js';
import { clone } from './support/parse.js';
import { REPO } from './support/topology.js';

// kubeconform and node child processes: seconds on a loaded machine, not the default 5.
const TOOL = join(REPO, 'deploy', 'tools', 'strimzi-topics.mjs');
const COMPONENT = join(REPO, 'deploy', 'k8s', 'components', 'strimzi-kafka');

interface Acl {
  resource: { type: string; name?: string; patternType?: string };
  operations: string[];
}
type KafkaUser = K8sObject & { spec: { authentication: { type: string }; authorization: { acls: Acl[] } } };
type KafkaTopic = K8sObject & {
  spec: { topicName: string; partitions: number; replicas: number; config: Record<string, unknown> };
};

function installStrimziSchemas(): void {
  const out = spawnSync('bash', [join(REPO, 'deploy', 'tools', 'install-strimzi-crds.sh')], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (out.status !== 0) throw new Error(`install-strimzi-crds.sh failed: ${out.stderr}`);
}

/** The component as an overlay uses it (a Component renders only inside a kustomization; by a
 *  relative path, which kustomize requires). */
function renderComponent(): K8sObject[] {
  const dir = mkdtempSync(join(tmpdir(), 'strimzi-overlay-'));
  try {
    writeFileSync(join(dir, 'kustomization.yaml'), `components:\n  - ${relative(dir, COMPONENT)}\n`);
    return renderKustomization(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const acls = (user: KafkaUser, type: string, operation: string) =>
  user.spec.authorization.acls
    .filter((a) => a.resource.type === type && a.operations.includes(operation))
    .map((a) => (a.resource.patternType === 'prefix' ? `${a.resource.name}*` : a.resource.name));

describe('Strimzi KafkaTopic and KafkaUser objects from the topic catalog', () => {
  let objects: K8sObject[];
  const topics = () => objects.filter((o): o is KafkaTopic => o.kind === 'KafkaTopic');
  const user = (name: string) =>
    objects.find((o): o is KafkaUser => o.kind === 'KafkaUser' && o.metadata?.name === name)!;

  beforeAll(() => {
    kubeconform();
    installStrimziSchemas();
    objects = renderComponent();
  }, 900_000);

  it('are the generator output (node deploy/tools/strimzi-topics.mjs)', () => {
    const check = spawnSync(process.execPath, [TOOL, '--check'], { encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  }, 60_000);

  it('validate strictly against the Strimzi CRD schemas', () => {
    const result = validateWithKubeconform(objects);
    expect(result.problems).toEqual([]);
    expect(result).toMatchObject({ valid: objects.length, invalid: 0, errors: 0, skipped: 0 });
  }, 60_000);

  it('catch a misspelt field or a wrong type (the schemas bite)', () => {
    const broken = clone(objects);
    const topic = broken.find((o) => o.kind === 'KafkaTopic') as KafkaTopic & {
      spec: Record<string, unknown>;
    };
    topic.spec.partitons = 3;
    const kafkaUser = broken.find((o) => o.kind === 'KafkaUser') as KafkaUser & {
      spec: Record<string, unknown>;
    };
    (kafkaUser.spec.authentication as { type: string }).type = 'password';
    const problems = validateWithKubeconform(broken).problems.join('\n');
    expect(problems).toMatch(/KafkaTopic .*partitons/);
    expect(problems).toMatch(/KafkaUser /);
  }, 60_000);

  it('declare every catalog topic with its partitions, replicas, min ISR and retention', () => {
    const byName = new Map(topics().map((t) => [t.spec.topicName, t]));
    expect(byName.size).toBe(catalogWithDeadLetters().length);
    for (const declared of catalogWithDeadLetters()) {
      expect(byName.get(declared.name)?.spec, declared.name).toEqual({
        topicName: declared.name,
        partitions: declared.partitions,
        replicas: declared.replicationFactor,
        config: {
          'min.insync.replicas': declared.minInsyncReplicas,
          'retention.ms': declared.retentionMs,
          'cleanup.policy': declared.cleanupPolicy,
          // Only where the catalog raises the broker's default (the sandbox topics: 5 MiB).
          ...(declared.maxMessageBytes ? { 'max.message.bytes': declared.maxMessageBytes } : {}),
        },
      });
    }
  });

  it.each(KAFKA_SERVICES.map((s) => [s]))(
    'give %s Write on what it produces, Read on what it consumes, its group prefix',
    (service: KafkaService) => {
      const kafkaUser = user(service);
      expect(kafkaUser.spec.authentication.type).toBe('scram-sha-512');
      const produced = TOPIC_CATALOG.filter((t) => t.producers.includes(service)).map((t) => t.name);
      const consumed = TOPIC_CATALOG.filter((t) => t.consumers.includes(service)).map((t) => t.name);
      expect(acls(kafkaUser, 'topic', 'Write').sort()).toEqual(
        [...produced, ...consumed.map((t) => `${t}.dlq`)].sort(),
      );
      for (const topic of consumed) expect(acls(kafkaUser, 'topic', 'Read')).toContain(topic);
      // Nothing beyond its own topics, and never the right to create or reconfigure one.
      for (const name of acls(kafkaUser, 'topic', 'Write')) expect(topicsOfService(service)).toContain(name);
      for (const operation of ['Create', 'Alter', 'AlterConfigs', 'All'])
        expect(acls(kafkaUser, 'topic', operation), operation).toEqual([]);
      expect(acls(kafkaUser, 'group', 'Read')).toContain(`${service}.*`);
      expect(
        acls(kafkaUser, 'group', 'Read').every(
          (g) => g!.startsWith(`${service}.`) || g!.startsWith('workers.'),
        ),
      ).toBe(true);
      // Only observability deletes groups: its own throw-away scan groups.
      expect(acls(kafkaUser, 'group', 'Delete')).toEqual(
        service === 'observability' ? ['observability.scan.*'] : [],
      );
    },
  );

  it('give the sandbox worker its task queue and results topic, its group, and nothing else', () => {
    const sandbox = user('sandbox');
    // Every topic ACL, whatever the operation: exactly these three.
    const touched = sandbox.spec.authorization.acls
      .filter((a) => a.resource.type === 'topic')
      .map((a) => `${a.resource.name} ${[...a.operations].sort().join('+')}`)
      .sort();
    expect(touched).toEqual([
      'platform.sandbox-results Describe+Write',
      'queue.sandbox Describe+Read',
      'queue.sandbox.dlq Describe+Write',
    ]);
    expect(acls(sandbox, 'group', 'Read').sort()).toEqual(['sandbox.*', 'workers.sandbox']);
    expect(acls(sandbox, 'group', 'Describe').sort()).toEqual(['sandbox.*', 'workers.sandbox']);
    expect(sandbox.spec.authorization.acls.filter((a) => a.resource.type === 'cluster')).toEqual([]);
  });

  it('let the kafka-topics Job create, raise and configure exactly the catalog topics', () => {
    const job = user('kafka-topics');
    for (const operation of ['Create', 'Alter', 'AlterConfigs', 'DescribeConfigs'])
      expect(acls(job, 'topic', operation).sort(), operation).toEqual(
        catalogWithDeadLetters()
          .map((t) => t.name)
          .sort(),
      );
    expect(acls(job, 'topic', 'Write')).toEqual([]);
    expect(acls(job, 'group', 'Read')).toEqual([]);
  });
});
