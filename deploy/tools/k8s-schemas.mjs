// Turns the Kubernetes OpenAPI v2 document (api/openapi-spec/swagger.json of the k8s.io/kubernetes
// Go module) into the standalone, strict JSON schemas kubeconform reads: one file per kind and
// group version, named `<kind>-<group>-<version>.json` (`deployment-apps-v1.json`,
// `service-v1.json`), every `$ref` inlined.
//
//   node deploy/tools/k8s-schemas.mjs <swagger.json> <output dir>
//
// Strict: an object schema with `properties` and no `additionalProperties` refuses unknown keys,
// so a misspelt field (`contianers:`) fails validation instead of being dropped by the API server.
// Two types the document cannot express in JSON schema are widened as the API server reads them:
// IntOrString (`port: 8080` or `port: http`) and Quantity (`cpu: 1` or `cpu: 500m`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [swaggerPath, outDir] = process.argv.slice(2);
if (!swaggerPath || !outDir) {
  console.error('usage: node k8s-schemas.mjs <swagger.json> <output dir>');
  process.exit(2);
}
const { definitions } = JSON.parse(readFileSync(swaggerPath, 'utf8'));

const WIDENED = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: ['string', 'integer'] },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: ['string', 'number'] },
};
// Recursive definitions (CRD validation schemas) stay references into a local `definitions` map.
const RECURSIVE = new Set(['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps']);

/** A copy of `schema` with references inlined, made strict, and nulls allowed on optional fields. */
function convert(schema, seen) {
  if (Array.isArray(schema)) return schema.map((item) => convert(item, seen));
  if (schema === null || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/definitions/', '');
    if (WIDENED[name]) return { ...WIDENED[name] };
    if (RECURSIVE.has(name) || seen.has(name)) return { type: 'object' };
    return convert(definitions[name], new Set(seen).add(name));
  }
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties') {
      out.properties = {};
      for (const [prop, propSchema] of Object.entries(value))
        out.properties[prop] = nullable(convert(propSchema, seen));
    } else if (key === 'format' && value === 'int-or-string') {
      out.type = ['string', 'integer'];
    } else if (key !== 'type' || out.type === undefined) {
      out[key] = convert(value, seen);
    }
  }
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** Optional fields may be written as `null` (kustomize keeps `creationTimestamp: null`). */
function nullable(schema) {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.type) && !schema.type.includes('null'))
    return { ...schema, type: [...schema.type, 'null'] };
  return schema;
}

mkdirSync(outDir, { recursive: true });
let written = 0;
for (const [name, definition] of Object.entries(definitions)) {
  for (const gvk of definition['x-kubernetes-group-version-kind'] ?? []) {
    // kubeconform's {{ .KindSuffix }}: `-<first label of the group>-<version>`, or `-<version>` for core.
    const group = gvk.group ? `-${gvk.group.split('.')[0]}` : '';
    const file = `${gvk.kind.toLowerCase()}${group}-${gvk.version}.json`.toLowerCase();
    const schema = convert(definition, new Set([name]));
    schema.$schema = 'http://json-schema.org/schema#';
    writeFileSync(join(outDir, file), JSON.stringify(schema));
    written += 1;
  }
}
console.error(`[k8s-schemas] ${written} schemas in ${outDir}`);
