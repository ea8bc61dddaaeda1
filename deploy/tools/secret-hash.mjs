// Stamps each Deployment's pod template with a hash of the Secret values it reads, so that a changed
// Secret rolls exactly the Deployments that read it (the Secrets live outside the manifests, so
// kustomize's own name hashes cannot do it):
//
//   kubectl get secrets -n agent-platform -o json > /tmp/secrets.json
//   kubectl kustomize deploy/k8s/overlays/prod \
//     | node deploy/tools/secret-hash.mjs --secrets /tmp/secrets.json | kubectl apply -f -
//
// The hash (annotation agent-platform.io/secret-hash, sha256 over the sorted name/key/value triples
// of every secretKeyRef, envFrom secretRef and secret volume of the pod) replaces the overlay's
// `unset`. A referenced Secret or key that does not exist stops the step (exit 1, naming it) before
// anything is applied. Clusters with Reloader (the overlay's secret.reloader.stakater.com/auto) or
// an External Secrets / SealedSecrets controller that rolls pods need not run this.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseAllDocuments, stringify } from 'yaml';

export const ANNOTATION = 'agent-platform.io/secret-hash';

/** The [secret, key] pairs a pod spec reads; key `*` means every key of the Secret. */
export function secretReads(podSpec) {
  const reads = [];
  for (const c of [...(podSpec?.initContainers ?? []), ...(podSpec?.containers ?? [])]) {
    for (const e of c.env ?? []) {
      const ref = e.valueFrom?.secretKeyRef;
      if (ref) reads.push([ref.name, ref.key]);
    }
    for (const from of c.envFrom ?? []) if (from.secretRef) reads.push([from.secretRef.name, '*']);
  }
  for (const v of podSpec?.volumes ?? []) if (v.secret) reads.push([v.secret.secretName, '*']);
  return reads;
}

/** sha256 of the values read, from a `kubectl get secrets -o json` list; throws on a missing one. */
export function hashOf(podSpec, secretList) {
  const byName = new Map((secretList.items ?? []).map((s) => [s.metadata.name, s.data ?? {}]));
  const triples = [];
  for (const [name, key] of secretReads(podSpec)) {
    const data = byName.get(name);
    if (!data) throw new Error(`Secret ${name} does not exist`);
    const keys = key === '*' ? Object.keys(data) : [key];
    for (const k of keys) {
      if (data[k] === undefined) throw new Error(`Secret ${name} has no key ${k}`);
      triples.push(`${name}\u0000${k}\u0000${data[k]}`);
    }
  }
  const hash = createHash('sha256');
  for (const t of [...new Set(triples)].sort()) hash.update(`${t}\n`);
  return hash.digest('hex');
}

/** The rendered manifests (multi-document YAML) with every Deployment's pod template stamped. */
export function stamp(manifests, secretList) {
  const docs = parseAllDocuments(manifests).map((d) => d.toJS());
  for (const o of docs) {
    if (o?.kind !== 'Deployment') continue;
    const template = o.spec.template;
    template.metadata ??= {};
    template.metadata.annotations = {
      ...template.metadata.annotations,
      [ANNOTATION]: hashOf(template.spec, secretList),
    };
  }
  return docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { secrets: { type: 'string' } } });
  if (!values.secrets) {
    console.error('usage: node secret-hash.mjs --secrets <kubectl get secrets -o json output>  < manifests');
    process.exit(2);
  }
  try {
    const secretList = JSON.parse(readFileSync(values.secrets, 'utf8'));
    process.stdout.write(stamp(readFileSync(0, 'utf8'), secretList));
  } catch (error) {
    console.error(`[secret-hash] ${error.message}`);
    process.exit(1);
  }
}
