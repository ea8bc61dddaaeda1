// Creates a fresh fuzz user through the API and prints its access token (one line on stdout).
// Registration goes through POST /register; later sign-ups wait for approval and e-mail
// verification, which a test stack has no inbox for, so the account is approved in identity's
// database (IDENTITY_DATABASE_URL) before POST /login/access-token.
// A bootstrap account is registered first so the fuzz user is never the superuser-by-being-first.
import { randomUUID } from 'node:crypto';
import { createPool } from '../packages/db/dist/index.js';

const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';
const databaseUrl = process.env.IDENTITY_DATABASE_URL;
if (!databaseUrl) throw new Error('IDENTITY_DATABASE_URL is required (source deploy/local/env.sh)');

async function call(path, init) {
  const response = await fetch(`${gateway}/api/v1${path}`, init);
  return { status: response.status, body: await response.json() };
}

async function register(username, password) {
  const res = await call('/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username}@fuzz.example.test`,
      password,
      terms_accepted: true,
    }),
  });
  if (res.body.code !== 0 && res.body.code !== 5002) {
    throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

const password = `Fz-${randomUUID()}-9`;
await register('fuzz_bootstrap', `Fz-${randomUUID()}-9`);
const username = `fuzz_${randomUUID().slice(0, 8)}`;
await register(username, password);

// Only on a throwaway stack (scripts/fuzz-dev-stack.mjs): a superuser fuzzes the admin routes too,
// changing site settings and other accounts at random.
const superuser = process.env.FUZZ_AS_SUPERUSER === '1';
const pool = createPool(databaseUrl);
try {
  await pool.query(
    `UPDATE users SET approval_status = 'approved', is_active = true, email_verified = true,
            is_superuser = $2
      WHERE username = $1`,
    [username, superuser],
  );
} finally {
  await pool.end();
}

const login = await call('/login/access-token', {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ username, password }).toString(),
});
const token = login.body.data?.access_token;
if (!token) throw new Error(`login ${username}: ${login.status} ${JSON.stringify(login.body)}`);
process.stdout.write(`${token}\n`);
