#!/usr/bin/env node
// Prints a fresh deploy/.env for docker compose: every credential the compose file requires, random
// per machine. DEVELOPMENT ONLY: production keys live in the orchestrator's secret store
// (deploy/README.md, "The Secrets").
//
//   node deploy/docker/dev-secrets.mjs > deploy/.env
//
// PEM keys are written on one line with literal \n escapes (the services accept both forms).
import { generateKeyPairSync, randomBytes } from 'node:crypto';

const hex = (bytes) => randomBytes(bytes).toString('hex');
const oneLine = (pem) => pem.trim().replaceAll('\n', '\\n');
const ed25519 = () =>
  generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
const { privateKey, publicKey } = ed25519();
// One service signing key per caller: each service signs its service tokens as itself only.
const SERVICE_CALLERS = [
  'gateway',
  'apikeys',
  'notifications',
  'models',
  'workflows',
  'observability',
  'operator',
  'agent-runtime',
];
const serviceKeys = SERVICE_CALLERS.flatMap((name) => {
  const suffix = name.toUpperCase().replaceAll('-', '_');
  const pair = ed25519();
  return [
    `SERVICE_SIGNING_PRIVATE_KEY_${suffix}='${oneLine(pair.privateKey)}'`,
    `SERVICE_PUBLIC_KEY_${suffix}='${oneLine(pair.publicKey)}'`,
  ];
});

const lines = [
  `# deploy/.env written by deploy/docker/dev-secrets.mjs on ${new Date().toISOString()}: DEV ONLY.`,
  '# JWT signing and at-rest encryption (gateway, identity).',
  `SECRET_KEY=${hex(32)}`,
  "# Models' own at-rest key (its SECRET_KEY): never the JWT key.",
  `MODELS_SECRET_KEY=${hex(32)}`,
  '# Seals work-queue task args that carry secrets (identity seals, notifications opens).',
  `TASK_SEAL_KEY=${hex(32)}`,
  '# The gateway signs the principal it forwards; the domain services verify it.',
  `PRINCIPAL_SIGNING_PRIVATE_KEY='${oneLine(privateKey)}'`,
  `PRINCIPAL_SIGNING_PUBLIC_KEY='${oneLine(publicKey)}'`,
  '# Service keys for internal-only RPCs: each service gets its own private key, its callees the public one.',
  ...serviceKeys,
  '# The postgres superuser the services connect as; URL-safe (it is put into the DATABASE_URLs).',
  `POSTGRES_PASSWORD=${hex(24)}`,
  '# Redis requirepass; URL-safe because it is put into REDIS_URL.',
  `REDIS_PASSWORD=${hex(24)}`,
  '# TZ=UTC   the zone of scheduled checks (every service)',
];
process.stdout.write(`${lines.join('\n')}\n`);
