// deploy/tools/secret-hash.mjs on the rendered production overlay: each Deployment's pod template
// gets a hash of exactly the Secret values it reads, so a changed Secret rolls its readers and no
// one else; a missing Secret or key stops the step before anything is applied.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Obj } from './support/k8s-prod.js';
import { renderKustomization } from './support/kubectl.js';
import { DEPLOY, K8S } from './support/topology.js';

const SCRIPT = join(DEPLOY, 'tools', 'secret-hash.mjs');
const ANNOTATION = 'agent-platform.io/secret-hash';
const work = mkdtempSync(join(tmpdir(), 'secret-hash-'));

type SecretList = { items: { metadata: { name: string }; data: Record<string, string> }[] };

/** Every Secret key the Deployments read, each with a value of its own. */
function secretsFor(objects: Obj[]): SecretList {
  const data = new Map<string, Record<string, string>>();
  for (const d of objects.filter((o) => o.kind === 'Deployment'))
    for (const e of d.spec.template.spec.containers[0].env ?? []) {
      const ref = e.valueFrom?.secretKeyRef;
      if (!ref) continue;
      data.set(ref.name, {
        ...data.get(ref.name),
        [ref.key]: Buffer.from(`${ref.name}/${ref.key}`).toString('base64'),
      });
    }
  return { items: [...data].map(([name, d]) => ({ metadata: { name }, data: d })) };
}

function run(manifests: string, secrets: SecretList) {
  const path = join(work, `secrets-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(secrets));
  const out = spawnSync(process.execPath, [SCRIPT, '--secrets', path], {
    input: manifests,
    encoding: 'utf8',
  });
  const hashes = new Map<string, string>();
  if (out.status === 0)
    for (const doc of parseAllDocuments(out.stdout).map((d) => d.toJS() as Obj))
      if (doc?.kind === 'Deployment')
        hashes.set(doc.metadata.name, doc.spec.template.metadata.annotations[ANNOTATION]);
  return { status: out.status, stderr: out.stderr, hashes };
}

describe('secret-hash.mjs', () => {
  let manifests: string;
  let secrets: SecretList;
  beforeAll(() => {
    const objects = renderKustomization(join(K8S, 'overlays', 'prod')) as Obj[];
    manifests = objects.map((o) => JSON.stringify(o)).join('\n---\n');
    secrets = secretsFor(objects);
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('stamps every Deployment with a hash in place of the overlay placeholder', () => {
    const { status, hashes } = run(manifests, secrets);
    expect(status).toBe(0);
    // The seven services, their three workers and the sandbox worker.
    expect(hashes.size).toBe(11);
    for (const hash of hashes.values()) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(hashes.values()).size).toBeGreaterThan(1);
  }, 60_000);

  it("a changed Secret changes exactly its readers' hashes", () => {
    const before = run(manifests, secrets).hashes;
    const changed = structuredClone(secrets);
    changed.items.find((s) => s.metadata.name === 'task-seal-key')!.data.TASK_SEAL_KEY = 'bmV3';
    const after = run(manifests, changed).hashes;
    const rolled = [...before.keys()].filter((name) => before.get(name) !== after.get(name)).sort();
    expect(rolled).toEqual(['identity', 'notifications', 'notifications-worker']);
  }, 60_000);

  it("the sandbox worker's own Kafka Secret rolls the sandbox worker alone", () => {
    const before = run(manifests, secrets).hashes;
    const changed = structuredClone(secrets);
    changed.items.find((s) => s.metadata.name === 'sandbox-kafka')!.data.KAFKA_SASL_PASSWORD = 'bmV3';
    const after = run(manifests, changed).hashes;
    expect([...before.keys()].filter((name) => before.get(name) !== after.get(name))).toEqual([
      'sandbox-worker',
    ]);
  }, 60_000);

  it('refuses a Secret or a key that does not exist', () => {
    const missing = structuredClone(secrets);
    missing.items = missing.items.filter((s) => s.metadata.name !== 'platform-redis');
    const out = run(manifests, missing);
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/Secret platform-redis does not exist/);
  }, 60_000);
});
