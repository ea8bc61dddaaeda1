// The live state the fuzzer's hooks (scripts/fuzz_hooks.py, scripts/fuzz_live/) hand to the
// operations whose well-formed requests no schema can make succeed: the right password, a code that
// was mailed, a captcha answer. Runs beside Schemathesis for one fuzz pass (scripts/fuzz-api.sh):
//   - signs up one approved account per role the hooks need (sign-in, password change, TOTP …), and
//     a site operator (superuser) that points the site's SMTP settings at an SMTP sink of its own;
//   - is an OpenID Connect issuer (its discovery document) and an OpenAI-style model endpoint
//     (GET /v1/models) on its own origin, which the operator registers as an SSO provider and adds
//     to the model endpoint allowlist, with SSO switched on (password login stays allowed);
//   - answers the hooks on 127.0.0.1: GET /state (accounts with ids, the SSO provider's name, its
//     origin), GET /mail?to=&after= (waits for the next mail to that address), GET /captcha/<id>
//     (the challenge as identity keeps it in Redis: its target);
//   - on SIGTERM or SIGINT puts the settings back as they were, removes its provider and stops.
// Prints one line, the port of its HTTP answerer, once everything is ready.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createPool } from '../packages/db/dist/index.js';
import { createRedis } from '../packages/redis/dist/index.js';
import { startSmtpSink } from '../packages/testing/dist/index.js';

const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';
const databaseUrl = required('IDENTITY_DATABASE_URL');
const redisUrl = required('REDIS_URL');
/** One account per use the hooks have, so one operation's lockout or TOTP state never spills. */
const ROLES = [
  'login',
  'password',
  'totp_enable',
  'totp_disable',
  'totp_regenerate',
  'totp_login',
  'activate_target',
  'deactivate_target',
];
const CHANGED_SETTINGS = [
  'smtp_enabled',
  'smtp_host',
  'smtp_port',
  'smtp_encryption',
  'email_from_address',
  'sso_enabled',
  'sso_allow_password_login',
  'model_endpoint_allowlist',
];

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required (source deploy/local/env.sh)`);
  return value;
}

async function call(method, path, { token, json, form } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (json) headers['content-type'] = 'application/json';
  if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const body = json ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : undefined;
  const response = await fetch(`${gateway}/api/v1${path}`, { method, headers, body });
  const answer = await response.json();
  if (answer.code !== 0) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer.data;
}

async function signUp(role) {
  const username = `fz_${role}_${randomUUID().slice(0, 8)}`;
  const account = { username, email: `${username}@fuzz.example.test`, password: `Fz-${randomUUID()}-9` };
  await call('POST', '/register', { json: { ...account, terms_accepted: true } });
  return account;
}

/**
 * Approved and verified in identity's database (a test stack has no one to approve sign-ups);
 * answers each account's id.
 */
async function approve(usernames, superusers) {
  const pool = createPool(databaseUrl);
  try {
    const { rows } = await pool.query(
      `UPDATE users SET approval_status = 'approved', is_active = true, email_verified = true,
              is_superuser = (username = ANY($2))
        WHERE username = ANY($1)
        RETURNING id, username`,
      [usernames, superusers],
    );
    return new Map(rows.map((row) => [row.username, row.id]));
  } finally {
    await pool.end();
  }
}

const accounts = {};
for (const role of [...ROLES, 'operator']) accounts[role] = await signUp(role);
const ids = await approve(
  Object.values(accounts).map((account) => account.username),
  [accounts.operator.username],
);
for (const account of Object.values(accounts)) account.id = ids.get(account.username);
const { access_token: operatorToken } = await call('POST', '/login/access-token', {
  form: { username: accounts.operator.username, password: accounts.operator.password },
});

const redis = createRedis(redisUrl);
const sink = await startSmtpSink();

let origin = '';
let ssoProvider = { id: '', name: '' };

/** The least an OpenID Connect client reads to send a browser to the provider. */
const discovery = () => ({
  issuer: origin,
  authorization_endpoint: `${origin}/authorize`,
  token_endpoint: `${origin}/token`,
  jwks_uri: `${origin}/jwks`,
  response_types_supported: ['code'],
  subject_types_supported: ['public'],
  id_token_signing_alg_values_supported: ['RS256'],
  code_challenge_methods_supported: ['S256'],
});

async function answer(url) {
  if (url.pathname === '/state') return { accounts, sso_provider: ssoProvider.name, origin };
  if (url.pathname === '/.well-known/openid-configuration') return discovery();
  if (url.pathname === '/v1/models') return { object: 'list', data: [{ id: 'fz-model', object: 'model' }] };
  if (url.pathname === '/mail') {
    const to = url.searchParams.get('to') ?? '';
    const after = Number(url.searchParams.get('after') ?? 0);
    const mail = await sink.waitForMail(to, { timeoutMs: 15_000, after });
    return { index: sink.mails.indexOf(mail), subject: mail.subject, text: mail.text };
  }
  const captcha = /^\/captcha\/([A-Za-z0-9_-]{16,64})$/.exec(url.pathname);
  if (captcha) return JSON.parse((await redis.get(`captcha:challenge:${captcha[1]}`)) ?? 'null');
  return undefined;
}

const server = createServer((request, response) => {
  answer(new URL(request.url ?? '/', 'http://127.0.0.1'))
    .then((data) => {
      response.writeHead(data === undefined ? 404 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(data ?? null));
    })
    .catch((error) => {
      response.writeHead(504, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: String(error?.message ?? error) }));
    });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
origin = `http://127.0.0.1:${server.address().port}`;

const before = await call('GET', '/admin/site-settings', { token: operatorToken });
await call('PUT', '/admin/site-settings', {
  token: operatorToken,
  json: {
    smtp_enabled: true,
    smtp_host: '127.0.0.1',
    smtp_port: sink.port,
    smtp_encryption: 'none',
    email_from_address: 'fuzz@fuzz.example.test',
    sso_enabled: true,
    sso_allow_password_login: true,
    model_endpoint_allowlist: [...(before.model_endpoint_allowlist ?? []), origin],
  },
});
ssoProvider = {
  name: `fuzz-sso-${randomUUID().slice(0, 8)}`,
  id: '',
};
ssoProvider.id = (
  await call('POST', '/admin/sso/providers', {
    token: operatorToken,
    json: {
      name: ssoProvider.name,
      display_name: 'Fuzz issuer',
      issuer: origin,
      client_id: 'fuzz-client',
      client_secret: 'fuzz-client-secret',
    },
  })
).id;
process.stdout.write(`${server.address().port}\n`);

async function stop() {
  const restore = Object.fromEntries(CHANGED_SETTINGS.map((name) => [name, before[name]]));
  await call('PUT', '/admin/site-settings', { token: operatorToken, json: restore }).catch((error) =>
    process.stderr.write(`fuzz-live-state: settings not restored: ${error.message}\n`),
  );
  // 404: the superuser pass fuzzed DELETE /admin/sso/providers/{id} with this id and took it already.
  await call('DELETE', `/admin/sso/providers/${ssoProvider.id}`, { token: operatorToken }).catch((error) => {
    if (!/: 404 /.test(error.message)) {
      process.stderr.write(
        `fuzz-live-state: SSO provider ${ssoProvider.name} not removed: ${error.message}\n`,
      );
    }
  });
  server.close();
  redis.disconnect();
  await sink.close();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
