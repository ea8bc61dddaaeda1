// Turns CustomResourceDefinitions (JSON, as the prometheus-operator Go module ships them in
// jsonnet/prometheus-operator/*-crd.json) into the standalone JSON schemas kubeconform reads, named
// like deploy/tools/k8s-schemas.mjs names the built-in kinds: `<kind>-<first label of the
// group>-<version>.json` (`servicemonitor-monitoring-v1.json`).
//
//   node deploy/tools/crd-schemas.mjs <output dir> <crd.json>...
//
// Strict like the built-in schemas: an object with `properties` and no `additionalProperties`
// (and not marked x-kubernetes-preserve-unknown-fields) refuses unknown keys, so a misspelt field
// fails validation instead of being pruned by the API server.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const [outDir, ...crdPaths] = process.argv.slice(2);
if (!outDir || crdPaths.length === 0) {
  console.error('usage: node crd-schemas.mjs <output dir> <crd.json>...');
  process.exit(2);
}

/** A copy of an OpenAPI v3 schema made strict, with int-or-string widened as the API server reads it. */
function strict(schema) {
  if (Array.isArray(schema)) return schema.map(strict);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) out[key] = strict(value);
  if (schema['x-kubernetes-int-or-string']) out.type = ['string', 'integer'];
  if (
    out.properties &&
    out.additionalProperties === undefined &&
    !schema['x-kubernetes-preserve-unknown-fields']
  )
    out.additionalProperties = false;
  return out;
}

mkdirSync(outDir, { recursive: true });
let written = 0;
for (const path of crdPaths) {
  // JSON (prometheus-operator) or YAML (Strimzi's generated CRDs, install-strimzi-crds.sh).
  const text = readFileSync(path, 'utf8');
  const crd = path.endsWith('.json') ? JSON.parse(text) : parse(text);
  const { group, names, versions } = crd.spec;
  for (const version of versions) {
    const file = `${names.kind}-${group.split('.')[0]}-${version.name}.json`.toLowerCase();
    const schema = strict(version.schema.openAPIV3Schema);
    schema.$schema = 'http://json-schema.org/schema#';
    writeFileSync(join(outDir, file), JSON.stringify(schema));
    written += 1;
  }
}
console.error(`[crd-schemas] ${written} schemas in ${outDir}`);
