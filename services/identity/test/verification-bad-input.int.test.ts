import { describe, expect, it } from 'vitest';
import { useIdentityHarness } from './support/suite.js';

const harness = useIdentityHarness();

const longEmail = `${'a'.repeat(250)}@example.test`;
const email = 'someone@example.test';

async function expect422(path: string, json: unknown, fields: string[]) {
  const res = await harness.request('POST', path, { json });
  expect(res.status, JSON.stringify(json)).toBe(422);
  expect(res.body.code).toBe(1001);
  for (const field of fields) expect(res.body.data.errors, JSON.stringify(json)).toHaveProperty([field]);
}

async function rawPost(path: string, body: string, contentType = 'application/json') {
  const res = await fetch(`${harness.baseUrl}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  return { status: res.status, body: (await res.json()) as { code: number; data: any } };
}

const ROUTES = [
  '/send-verification',
  '/verify-email',
  '/resend-verification',
  '/forgot-password',
  '/reset-password',
];

describe('verification routes reject bad input with 422 / 1001 before reaching the service', () => {
  it('every route: malformed JSON 400 / 1002, non-object 422, wrong content type 415', async () => {
    for (const path of ROUTES) {
      const malformed = await rawPost(path, '{"email": ');
      expect(malformed.status, path).toBe(400);
      expect(malformed.body.code, path).toBe(1002);
      const array = await rawPost(path, '[]');
      expect(array.status, path).toBe(422);
      expect(array.body.code, path).toBe(1001);
      const form = await rawPost(path, 'email=a%40b.c', 'application/x-www-form-urlencoded');
      expect(form.status, path).toBe(415);
    }
  });

  it('POST /send-verification', async () => {
    await expect422('/send-verification', {}, ['email']);
    await expect422('/send-verification', { email: 42 }, ['email']);
    await expect422('/send-verification', { email: 'not-an-email' }, ['email']);
    await expect422('/send-verification', { email: longEmail }, ['email']);
    await expect422('/send-verification', { email, purpose: 'login' }, ['purpose']);
    await expect422('/send-verification', { email, purpose: 1 }, ['purpose']);
    await expect422('/send-verification', { email, captcha_id: 'x'.repeat(257) }, ['captcha_id']);
    await expect422('/send-verification', { email, captcha_token: 5 }, ['captcha_token']);
  });

  it('POST /verify-email', async () => {
    await expect422('/verify-email', {}, ['email', 'code']);
    await expect422('/verify-email', { email, code: '12345' }, ['code']);
    await expect422('/verify-email', { email, code: '1234567' }, ['code']);
    await expect422('/verify-email', { email, code: 'abcdef' }, ['code']);
    await expect422('/verify-email', { email, code: 123456 }, ['code']);
    await expect422('/verify-email', { email: 'bad', code: '123456' }, ['email']);
    await expect422('/verify-email', { email, code: '123456', purpose: 'other' }, ['purpose']);
  });

  it('GET /verify', async () => {
    const missing = await harness.request('GET', '/verify');
    expect(missing.status).toBe(422);
    expect(missing.body.data.errors).toHaveProperty(['token']);
    const empty = await harness.request('GET', '/verify?token=');
    expect(empty.status).toBe(422);
    const oversize = await harness.request('GET', `/verify?token=${'t'.repeat(513)}`);
    expect(oversize.status).toBe(422);
    const repeated = await harness.request('GET', '/verify?token=a&token=b');
    expect(repeated.status).toBe(422);
  });

  it('POST /resend-verification', async () => {
    await expect422('/resend-verification', {}, ['email']);
    await expect422('/resend-verification', { email: ['a@b.c'] }, ['email']);
    await expect422('/resend-verification', { email: longEmail }, ['email']);
    await expect422('/resend-verification', { email: '' }, ['email']);
  });

  it('POST /forgot-password', async () => {
    await expect422('/forgot-password', {}, ['email']);
    await expect422('/forgot-password', { email: null }, ['email']);
    await expect422('/forgot-password', { email: 'nope' }, ['email']);
    await expect422('/forgot-password', { email, captcha_id: {} }, ['captcha_id']);
    await expect422('/forgot-password', { email, captcha_token: 't'.repeat(257) }, ['captcha_token']);
  });

  it('POST /reset-password: neither (email + code) nor token is 422, as are bad field types', async () => {
    await expect422('/reset-password', { new_password: 'Valid-pass-1' }, ['token']);
    await expect422('/reset-password', { email, new_password: 'Valid-pass-1' }, ['code']);
    await expect422('/reset-password', { code: '123456', new_password: 'Valid-pass-1' }, ['email']);
    await expect422('/reset-password', { token: 'abc' }, ['new_password']);
    await expect422('/reset-password', { token: 'abc', new_password: 12345678 }, ['new_password']);
    await expect422('/reset-password', { token: 'abc', new_password: 'x'.repeat(1025) }, ['new_password']);
    await expect422('/reset-password', { token: '', new_password: 'Valid-pass-1' }, ['token']);
    await expect422('/reset-password', { token: 't'.repeat(513), new_password: 'Valid-pass-1' }, ['token']);
    await expect422('/reset-password', { email, code: '12ab56', new_password: 'Valid-pass-1' }, ['code']);
    await expect422('/reset-password', { email: 'bad', code: '123456', new_password: 'Valid-pass-1' }, [
      'email',
    ]);
  });
});
