// The service-key topology of the deployment descriptors (SERVICE_CALLERS in support/topology.ts,
// deploy/local/services.sh) must be the callers the services themselves declare: a caller missing
// here would start a service that cannot authenticate it (exit 78), one too many would hand a
// service a key it has no use for.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTERNAL_CALLERS as APIKEYS } from '../../services/apikeys/src/grpc/internal-callers.js';
import { INTERNAL_CALLERS as IDENTITY } from '../../services/identity/src/grpc/internal-callers.js';
import {
  MODELS_INTERNAL_CALLERS,
  QUOTA_INTERNAL_CALLERS,
} from '../../services/models/src/grpc/internal-callers.js';
import { INTERNAL_CALLERS as WORKFLOWS } from '../../services/workflows/src/grpc/internal-callers.js';
import { DEPLOY, SERVICE_CALLERS, SERVICES } from './support/topology.js';

/** Every caller of a service's internal-method tables, once (as @platform/config's declaredCallers). */
const declaredCallers = (...tables: Record<string, readonly string[]>[]) => [
  ...new Set(tables.flatMap((table) => Object.values(table).flat())),
];
const declared: Record<string, string[]> = {
  identity: declaredCallers(IDENTITY),
  apikeys: declaredCallers(APIKEYS),
  models: declaredCallers(QUOTA_INTERNAL_CALLERS, MODELS_INTERNAL_CALLERS),
  workflows: declaredCallers(WORKFLOWS),
};
const sorted = (table: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(table).map(([k, v]) => [k, [...v].sort()]));

describe('service keys follow the declared callers', () => {
  it('SERVICE_CALLERS is what the services declare', () => {
    expect(sorted(SERVICE_CALLERS)).toEqual(sorted(declared));
  });

  it("the local runner gives each service its own private key and only its callers' public keys", () => {
    const script = `source deploy/local/env.sh
      eval "$(sed -n '/^upper()/,/^export_service_keys()/p' deploy/local/services.sh | sed '$d')"
      eval "$(sed -n '/^export_service_keys()/,/^}/p' deploy/local/services.sh)"
      for name in ${SERVICES.map((s) => s.name).join(' ')}; do
        ( export_service_keys "$name"
          printf '%s %s ' "$name" "$(node -e 'const k=process.env.SERVICE_SIGNING_PRIVATE_KEY; process.stdout.write(k ? require("crypto").createPublicKey(k).export({type:"spki",format:"pem"}).toString().trim().split("\\n")[1] : "-")')"
          compgen -e | grep '^SERVICE_' | grep -v '^SERVICE_SIGNING_PRIVATE_KEY$' | tr '\\n' ' '; echo )
      done`;
    const out = spawnSync('bash', ['-c', script], { cwd: join(DEPLOY, '..'), encoding: 'utf8', env: {} });
    expect(out.status, out.stderr).toBe(0);
    const publicOf = (name: string) =>
      spawnSync(
        'bash',
        ['-c', `source deploy/local/env.sh; printf '%s' "$SERVICE_PUBLIC_KEY_${name.toUpperCase()}"`],
        {
          cwd: join(DEPLOY, '..'),
          encoding: 'utf8',
          env: {},
        },
      ).stdout.split('\n')[1];
    for (const line of out.stdout.trim().split('\n')) {
      const [name, ownPublic, ...vars] = line.trim().split(/\s+/);
      expect(ownPublic, `${name}'s own key`).toBe(name === 'identity' ? '-' : publicOf(name!));
      const expected = (SERVICE_CALLERS[name!] ?? []).map(
        (c) => `SERVICE_PUBLIC_KEY_${c.toUpperCase().replace(/-/g, '_')}`,
      );
      expect([name, vars.sort()]).toEqual([name, expected.sort()]);
    }
  });
});
