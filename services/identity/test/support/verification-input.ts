import { expect } from 'vitest';
import type { IdentityHarness } from './harness.js';

/** An address over the 254 octets RFC 5321 allows. */
export const longEmail = `${'a'.repeat(250)}@example.test`;
/** A well-formed address, for bodies whose other fields are wrong. */
export const email = 'someone@example.test';

/** Requests that the gateway refuses before identity sees them (the verification routes' bad input). */
export function verificationInput(live: () => IdentityHarness) {
  /** POST `json`: 422 / 1001 naming every field of `fields`. */
  async function expect422(path: string, json: unknown, fields: string[]) {
    const res = await live().request('POST', path, { json });
    expect(res.status, JSON.stringify(json)).toBe(422);
    expect(res.body.code).toBe(1001);
    for (const field of fields) expect(res.body.data.errors, JSON.stringify(json)).toHaveProperty([field]);
  }

  /** POST a raw body (malformed JSON, a form) that the requester would not send. */
  async function rawPost(path: string, body: string, contentType = 'application/json') {
    const res = await fetch(`${live().baseUrl}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });
    return { status: res.status, body: (await res.json()) as { code: number; data: any } };
  }

  return { expect422, rawPost };
}
